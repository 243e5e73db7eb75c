import type { CryptoKey } from 'jose';
import { acceptKey, importVerificationKey, type VerificationKey } from './verification-key.js';
import { quoted } from './quoted-value.js';

export type KeySetCheck = { readonly ok: true; readonly keys: VerificationKeys } | { readonly ok: false; readonly problem: string };

/**
 * The configured keys by `kid`. Each key is imported for Web Crypto once, the first time a
 * token names it; the import is shared by every verification after it.
 */
export class VerificationKeys {
  readonly #byKid: ReadonlyMap<string, VerificationKey>;
  readonly #imports = new Map<string, Promise<CryptoKey>>();

  private constructor(keys: readonly VerificationKey[]) {
    this.#byKid = new Map(keys.map((key) => [key.kid, key]));
  }

  /**
   * Checks every key (verification-key.ts) and that no two share a `kid`. A problem names the
   * key by its place in the list and its kid: `` `keys[2]` (kid `a`) is a private key … ``.
   */
  static check(jwks: readonly unknown[]): KeySetCheck {
    if (jwks.length === 0) return { ok: false, problem: 'no keys are given: no token could ever be verified' };
    const accepted: VerificationKey[] = [];
    const indexOfKid = new Map<string, number>();
    for (const [index, jwk] of jwks.entries()) {
      const acceptance = acceptKey(jwk);
      if (!acceptance.ok) return { ok: false, problem: `${keyName(index, jwk)} ${acceptance.problem}` };
      const { kid } = acceptance.key;
      const first = indexOfKid.get(kid);
      if (first !== undefined) {
        return { ok: false, problem: `${keyName(index, jwk)} has the same kid as \`keys[${first}]\`: a token could not say which of them signed it` };
      }
      indexOfKid.set(kid, index);
      accepted.push(acceptance.key);
    }
    return { ok: true, keys: new VerificationKeys(accepted) };
  }

  /** The key with this kid, if one is configured. */
  byKid(kid: string): VerificationKey | undefined {
    return this.#byKid.get(kid);
  }

  /** The one configured key, when there is exactly one: then a token may omit its `kid`. */
  sole(): VerificationKey | undefined {
    if (this.#byKid.size !== 1) return undefined;
    const [only] = this.#byKid.values();
    return only;
  }

  /** Every key, in the order configured. */
  get all(): readonly VerificationKey[] {
    return [...this.#byKid.values()];
  }

  get kids(): readonly string[] {
    return [...this.#byKid.keys()];
  }

  /**
   * The Web Crypto key for a configured key. Keys read by loadJwks were imported once already,
   * so a failure here means keys built in code that were never usable: a fault in the
   * configuration, not in the token, so it is thrown.
   */
  cryptoKey(key: VerificationKey): Promise<CryptoKey> {
    let imported = this.#imports.get(key.kid);
    if (imported === undefined) {
      imported = importVerificationKey(key).then((result) => {
        if (!result.ok) throw new Error(`auth configuration: key ${quoted(key.kid)} ${result.problem}`);
        return result.cryptoKey;
      });
      this.#imports.set(key.kid, imported);
    }
    return imported;
  }
}

/** `` `keys[2]` (kid `a`) ``, or `` `keys[2]` `` when the key has no usable kid. */
export function keyName(index: number, jwk: unknown): string {
  const kid = typeof jwk === 'object' && jwk !== null ? (jwk as Readonly<Record<string, unknown>>)['kid'] : undefined;
  return typeof kid === 'string' && kid !== '' ? `\`keys[${index}]\` (kid ${quoted(kid)})` : `\`keys[${index}]\``;
}
