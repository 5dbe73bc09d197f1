// The chat's context that is not a repository file: web pages by URL and images by path. Never edited,
// never in the map; each change is recorded in the session log (pages whole, images by path and digest).
import type { ChatImage } from '../context/images.js';
import type { WebPage } from '../context/web-page.js';
import type { LogEntry } from './session-log.js';

export class ChatContext {
  private readonly pages: WebPage[] = [];
  private readonly pictures: ChatImage[] = [];

  /** `record` is told of every change, with the entry that describes the whole context now. */
  constructor(private readonly record: (entry: Extract<LogEntry, { type: 'context' }>) => void) {}

  /** The web pages, in the order they were added (what /save writes as /web commands). */
  get webPages(): readonly WebPage[] {
    return this.pages;
  }

  /** The images, in the order they were added (what /save writes as /add or /read-only commands). */
  get images(): readonly ChatImage[] {
    return this.pictures;
  }

  /** Adds (or refreshes) a page; false when the same URL with the same text was already there. */
  addWebPage(page: WebPage): boolean {
    return this.putAt(this.pages, this.pages.findIndex((p) => p.url === page.url), page, (old) => old.text === page.text);
  }

  dropWebPage(url: string): boolean {
    return this.removeAt(this.pages, this.pages.findIndex((p) => p.url === url));
  }

  /** Adds (or refreshes) an image; false when the same bytes were already there under that path. */
  addImage(image: ChatImage): boolean {
    return this.putAt(this.pictures, this.pictures.findIndex((p) => p.absolutePath === image.absolutePath), image, (old) => old.digest === image.digest);
  }

  /** Takes an image out, by its name or absolute path. */
  dropImage(name: string): boolean {
    return this.removeAt(this.pictures, this.pictures.findIndex((p) => p.name === name || p.absolutePath === name));
  }

  /** Drops every page and image; returns how many there were. */
  dropAll(): number {
    const count = this.pages.length + this.pictures.length;
    if (count === 0) return 0;
    this.pages.splice(0);
    this.pictures.splice(0);
    this.changed();
    return count;
  }

  /** Puts back the pages and images of a resumed session (nothing is recorded again). */
  restore(pages: readonly WebPage[], images: readonly ChatImage[]): void {
    this.pages.splice(0, this.pages.length, ...pages);
    this.pictures.splice(0, this.pictures.length, ...images);
  }

  /** Replaces the item at `index` in place (appends when -1); false when it is there unchanged. */
  private putAt<T>(list: T[], index: number, item: T, unchanged: (old: T) => boolean): boolean {
    if (index >= 0 && unchanged(list[index]!)) return false;
    list.splice(index >= 0 ? index : list.length, index >= 0 ? 1 : 0, item);
    this.changed();
    return true;
  }

  private removeAt<T>(list: T[], index: number): boolean {
    if (index < 0) return false;
    list.splice(index, 1);
    this.changed();
    return true;
  }

  private changed(): void {
    this.record({
      type: 'context',
      pages: this.pages.map((p) => ({ url: p.url, text: p.text })),
      images: this.pictures.map((p) => ({ name: p.name, absolutePath: p.absolutePath, digest: p.digest })),
    });
  }
}
