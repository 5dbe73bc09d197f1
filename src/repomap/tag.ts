// The unit of the repository map: one definition or reference of a name in a file.
// Produced by the tag extractor, persisted by the tag cache, consumed by ranking and rendering.

export type TagRole = 'def' | 'ref';

export interface Tag {
  /** Repository-relative path with forward slashes. */
  readonly path: string;
  readonly name: string;
  readonly role: TagRole;
  /** class, function, method, interface, type, module, constant, enum, field, call, ... */
  readonly kind: string;
  /** 0-based line of the name. */
  readonly line: number;
  /** 0-based last line of the defining node (equals `line` for references). */
  readonly endLine: number;
}
