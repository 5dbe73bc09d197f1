// Token counting with tiktoken: one encoder per encoding for the whole process, created on first
// use so start-up never pays for the WASM.
import { createRequire } from 'node:module';
// Types only: erased at build, so importing them never loads tiktoken.
import type { TiktokenEncoding } from 'tiktoken';
import type { TokenCounter } from '../platform/token-counter.js';

/** A TokenCounter that also names its tiktoken encoding (for the bench's notes and the tests). */
export interface EncodedTokenCounter extends TokenCounter {
  /** The tiktoken encoding used: the model's own, or FALLBACK_ENCODING for a name tiktoken does not know. */
  readonly encoding: TiktokenEncoding;
}

/** Owns the encoders; the composition root creates one and hands counters out from it. */
export interface TokenizerPool {
  counterFor(model: string): EncodedTokenCounter;
  /** Releases the encoders' WASM memory; counters created before may not be used afterwards. */
  free(): void;
}

/** The subset of tiktoken this module uses, typed here so tiktoken loads only when first needed. */
interface Encoder {
  encode_ordinary(text: string): Uint32Array;
  free(): void;
}
interface TiktokenModule {
  get_encoding(name: TiktokenEncoding): Encoder;
  get_encoding_name_for_model(model: string): TiktokenEncoding;
}

export const FALLBACK_ENCODING: TiktokenEncoding = 'o200k_base';

export function createTokenizerPool(): TokenizerPool {
  const encoders = new Map<TiktokenEncoding, Encoder>();
  let tiktoken: TiktokenModule | undefined;

  // tiktoken's Node entry is CommonJS and loads its WASM synchronously, so require keeps count() sync.
  const load = (): TiktokenModule => {
    tiktoken ??= createRequire(import.meta.url)('tiktoken') as TiktokenModule;
    return tiktoken;
  };
  const encoderFor = (encoding: TiktokenEncoding): Encoder => {
    let encoder = encoders.get(encoding);
    if (!encoder) {
      encoder = load().get_encoding(encoding);
      encoders.set(encoding, encoder);
    }
    return encoder;
  };

  return {
    counterFor(model: string): EncodedTokenCounter {
      // Resolved on first use: creating a counter must not load tiktoken.
      let encoding: TiktokenEncoding | undefined;
      const resolve = (): TiktokenEncoding => (encoding ??= encodingForModel(load(), model));
      return {
        get encoding() {
          return resolve();
        },
        count: (text: string) => (text.length === 0 ? 0 : encoderFor(resolve()).encode_ordinary(text).length),
      };
    },
    free(): void {
      for (const encoder of encoders.values()) encoder.free();
      encoders.clear();
    },
  };
}

/**
 * tiktoken knows OpenAI names only; it throws for the rest (local models, other vendors), and
 * provider prefixes ("openai/gpt-4o") hide known names, so the last path segment is tried too.
 */
function encodingForModel(tiktoken: TiktokenModule, model: string): TiktokenEncoding {
  const bare = model.trim().split('/').pop() ?? model;
  for (const name of [model.trim(), bare]) {
    try {
      return tiktoken.get_encoding_name_for_model(name);
    } catch {
      // not an OpenAI model name: try the next form, then the fallback
    }
  }
  return FALLBACK_ENCODING;
}
