// Shopping cart totals. Prices are in cents.
export function lineTotal(item) {
  return item.price * item.quantity;
}

export function cartTotal(items, coupon) {
  let total = 0;
  for (const item of items) total += lineTotal(item);
  if (coupon) {
    if (coupon.type === 'percent') total = total - total * coupon.value;
    if (coupon.type === 'fixed') total = total - coupon.value;
  }
  return total;
}
