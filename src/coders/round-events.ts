// The events one round of a request produces (edits, commits, checks); the session's event union
// includes them, so renderers see one stream.

export type RoundEvent =
  | {
      readonly type: 'edit';
      readonly path: string;
      readonly status: 'applied' | 'failed' | 'denied' | 'planned';
      readonly diff?: string;
      readonly error?: string;
      /** A failed edit's whole explanation (the closest lines of the file), as the model gets it. */
      readonly detail?: string;
    }
  | { readonly type: 'commit'; readonly hash: string; readonly message: string; readonly files: string[]; readonly user: boolean }
  | { readonly type: 'lint'; readonly ok: boolean; readonly output: string }
  | { readonly type: 'test'; readonly ok: boolean; readonly output: string }
  | { readonly type: 'info'; readonly message: string };

export type EmitRoundEvent = (event: RoundEvent) => void;
