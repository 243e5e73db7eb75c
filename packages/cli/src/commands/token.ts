import { resolve } from 'node:path';
import { readRegularFile } from '@adec/runtime';
import { importJWK, SignJWT, type JWK } from 'jose';
import { parseOptions, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec token --key <private.jwk> --org <org> --issuer <iss> --audience <aud> [options]

Mints a signed JWT for the decision service, for development and tests, and prints it on
standard output. The service (\`adec serve\`) accepts it when its --jwks file holds the key's
public half and its --issuer and --audience are the ones given here:

  adec keygen --out keys --name issuer
  echo "{ \\"keys\\": [$(cat keys/issuer.pub.jwk)] }" > jwks.json        # adec serve --jwks jwks.json
  TOKEN=$(adec token --key keys/issuer.key.jwk --org acme --issuer https://issuer.example \\
          --audience adec-decisions --sub agent-1 --act alice@acme.test)
  curl -H "authorization: Bearer $TOKEN" …/v1/decide

  --key <private.jwk>    the issuer's Ed25519 private JWK from \`adec keygen\` (required); its
                         \`kid\` goes in the token's header, so the service picks the key by it
  --org <org>            the caller's org, claim \`org_id\` (required): the tenant whose modules
                         and records the token reaches
  --issuer <iss>         claim \`iss\` (required): the service's --issuer
  --audience <aud>       claim \`aud\` (required): the service's --audience
  --sub <subject>        claim \`sub\`, the caller recorded with each decision (default adec-dev)
  --expires <duration>   how long the token is valid, claim \`exp\`: 30s, 15m, 1h, 7d (default 1h)
  --act <subject>        an actor the caller acts for (RFC 8693 \`act\` claim, recorded as the
                         decision's delegation chain); repeat to chain, outermost (the current
                         actor) first`;

/** The options \`adec token\` takes (each described in \`usage\`). */
export const OPTIONS = {
  key: { type: 'string' },
  org: { type: 'string' },
  issuer: { type: 'string' },
  audience: { type: 'string' },
  sub: { type: 'string', default: 'adec-dev' },
  expires: { type: 'string', default: '1h' },
  act: { type: 'string', multiple: true },
} as const;

/** `adec token`: one signed development token. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values } = parseOptions(
    args,
    usage,
    OPTIONS,
    [],
  );
  const keyPath = requiredOption(values, 'key', usage);
  const expires = requiredOption(values, 'expires', usage);
  if (!/^\d+[smhd]$/.test(expires)) throw new UsageError(`invalid --expires \`${expires}\`: expected a number and s, m, h or d, such as 15m\n\n${usage}`);
  const read = await readRegularFile(resolve(io.cwd, keyPath), { maxBytes: 64 * 1024, followSymlinks: true });
  let jwk: JWK;
  try {
    if (!read.ok) throw new Error(`it ${read.problem}`);
    jwk = JSON.parse(Buffer.from(read.bytes).toString('utf8')) as JWK;
    if (typeof jwk.d !== 'string' || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') throw new Error('it is not an Ed25519 private JWK (from adec keygen)');
  } catch (error) {
    io.stderr.write(`adec token: cannot use --key ${keyPath}: ${(error as Error).message}\n`);
    return EXIT.inputErrors;
  }
  const actors = (values as unknown as { act?: string[] }).act ?? [];
  const act = actors.reduceRight<Record<string, unknown> | undefined>((inner, sub) => (inner === undefined ? { sub } : { sub, act: inner }), undefined);
  const token = await new SignJWT({ org_id: requiredOption(values, 'org', usage), ...(act !== undefined && { act }) })
    .setProtectedHeader({ alg: 'EdDSA', ...(typeof jwk.kid === 'string' && { kid: jwk.kid }) })
    .setSubject(requiredOption(values, 'sub', usage))
    .setIssuer(requiredOption(values, 'issuer', usage))
    .setAudience(requiredOption(values, 'audience', usage))
    .setIssuedAt()
    .setExpirationTime(expires)
    .sign(await importJWK(jwk, 'EdDSA'));
  io.stdout.write(`${token}\n`);
  return EXIT.ok;
}
