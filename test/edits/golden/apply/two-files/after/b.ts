import { a } from "./a";
console.log(a + 1);
