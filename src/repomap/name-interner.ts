// Interns names by their UTF-8 bytes: an open-addressing hash table over one growing byte arena.
// Tags read from disk carry their names as bytes; looking each occurrence up here costs a hash of
// a few bytes, where making a JS string of every occurrence and hashing it into a Map took most of
// a second-clone map's time. Only a name seen for the first time becomes a string.

const EMPTY = -1;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class NameInterner {
  /** Bytes of every interned name, back to back; name `id` is `arena[starts[id] .. starts[id + 1])`. */
  private arena = new Uint8Array(1 << 16);
  private starts = new Int32Array(1 << 12);
  private hashes = new Uint32Array(1 << 12);
  private count = 0;
  /** Ids by hash, EMPTY where free; its length is a power of two, kept at most half full. */
  private slots = new Int32Array(1 << 13).fill(EMPTY);
  // A scratch buffer for looking a string up by its bytes without allocating.
  private scratch = Buffer.alloc(1 << 10);

  /** Where the last internRun stopped: the index of its NUL, or the end of the bytes. */
  runEnd = 0;

  get size(): number {
    return this.count;
  }

  /**
   * The id of the name in `bytes[start, end)`, or -1 when it is new and `add` is false. A new name
   * gets the next id (the caller keeps its string at that index).
   */
  idOfBytes(bytes: Uint8Array, start: number, end: number, add: boolean): number {
    let hash = FNV_OFFSET;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), FNV_PRIME);
    return this.find(bytes, start, end, hash >>> 0, add);
  }

  /**
   * Interns the name from `start` up to the next NUL byte (or the end of `bytes`), hashing as it
   * looks for the NUL; `runEnd` tells where that was.
   */
  internRun(bytes: Uint8Array, start: number): number {
    let hash = FNV_OFFSET;
    let end = start;
    for (; end < bytes.length; end++) {
      const byte = bytes[end] as number;
      if (byte === 0) break;
      hash = Math.imul(hash ^ byte, FNV_PRIME);
    }
    this.runEnd = end;
    return this.find(bytes, start, end, hash >>> 0, true);
  }

  private find(bytes: Uint8Array, start: number, end: number, hash: number, add: boolean): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot] as number;
      if (id === EMPTY) {
        if (!add) return -1;
        return this.insert(bytes, start, end, hash, slot);
      }
      if (this.hashes[id] === hash && this.equals(id, bytes, start, length)) return id;
    }
  }

  /** The id of `name`, added when new and `add` is true (else -1). */
  idOf(name: string, add: boolean): number {
    if (this.scratch.length < name.length * 3) this.scratch = Buffer.alloc(name.length * 3 + 64);
    const length = this.scratch.write(name, 0, 'utf8');
    return this.idOfBytes(this.scratch, 0, length, add);
  }

  private equals(id: number, bytes: Uint8Array, start: number, length: number): boolean {
    const from = this.starts[id] as number;
    if ((this.starts[id + 1] as number) - from !== length) return false;
    const arena = this.arena;
    for (let i = 0; i < length; i++) if (arena[from + i] !== bytes[start + i]) return false;
    return true;
  }

  private insert(bytes: Uint8Array, start: number, end: number, hash: number, slot: number): number {
    const id = this.count++;
    if (this.count + 1 >= this.starts.length) {
      this.starts = grown(this.starts, this.starts.length * 2);
      this.hashes = grown(this.hashes, this.hashes.length * 2);
    }
    const from = this.starts[id] as number;
    const to = from + (end - start);
    if (to > this.arena.length) this.arena = grown(this.arena, Math.max(to, this.arena.length * 2));
    this.arena.set(bytes.subarray(start, end), from);
    this.starts[id + 1] = to;
    this.hashes[id] = hash;
    this.slots[slot] = id;
    if (this.count * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = (this.hashes[id] as number) & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
  }
}

function grown<T extends Uint8Array | Int32Array | Uint32Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  next.set(array);
  return next;
}
