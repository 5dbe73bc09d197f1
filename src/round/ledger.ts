// What tandem wrote and has not committed (git was in the middle of a merge): one ledger per chat.
// A file still holding that text is tandem's work, not the user's, so it is never a "wip" commit.

export class UncommittedLedger {
  private readonly texts = new Map<string, string>();

  /** Whether `path` holds exactly the text tandem left there uncommitted. */
  holdsTandemsText(path: string, text: string | null): boolean {
    return this.texts.get(path) === text;
  }

  /** After a round wrote `written`: left uncommitted (`reason` given), they join the ledger; committed, they leave it. */
  record(written: ReadonlyArray<{ readonly path: string; readonly after: string }>, reason: string | undefined): void {
    for (const file of written) {
      if (reason) this.texts.set(file.path, file.after);
      else this.texts.delete(file.path);
    }
  }
}
