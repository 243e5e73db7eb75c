/**
 * Every answer the service gives a test is one its OpenAPI document describes: a documented
 * status of a documented route, and a JSON body that satisfies that response's schema (the
 * contracts' schemas among them: `DecisionResponse`, `DecisionPackage`, the error body, …).
 * The service fixture checks each response it returns, so the whole server suite holds the
 * document to what the service really sends, not to a few hand-picked examples.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { OPENAPI_DOCUMENT } from '../src/openapi.js';

const DOCUMENT_ID = 'https://adec.invalid/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...OPENAPI_DOCUMENT, $id: DOCUMENT_ID });

interface DocumentedResponse {
  readonly content?: Readonly<Record<string, { readonly schema?: unknown }>>;
}
type Operations = Readonly<Record<string, { readonly responses?: Readonly<Record<string, DocumentedResponse>> }>>;

const routes = Object.entries(OPENAPI_DOCUMENT.paths as Readonly<Record<string, Operations>>).map(([template, operations]) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  operations,
}));
const validators = new Map<string, ValidateFunction>();

const pointer = (text: string) => text.replaceAll('~', '~0').replaceAll('/', '~1');

/** What is wrong with `response` (to `method` `url`) against the document; null when nothing. */
export async function undocumented(method: string, url: string, response: Response): Promise<string | null> {
  const path = new URL(url, 'http://x').pathname;
  // A route the document does not know is the test's business (404s of made-up paths, probes).
  const route = routes.find((candidate) => candidate.template === path) ?? routes.find((candidate) => candidate.pattern.test(path));
  const operation = route?.operations[method.toLowerCase()];
  if (route === undefined || operation === undefined) return null;
  const status = String(response.status);
  const documented = operation.responses?.[status] ?? operation.responses?.['default'];
  if (documented === undefined) return `${method} ${route.template} answered ${status}, which its documentation does not list (${Object.keys(operation.responses ?? {}).join(', ')})`;
  if (documented.content?.['application/json']?.schema === undefined || !(response.headers.get('content-type') ?? '').includes('json')) return null;
  const key = `${route.template} ${method} ${operation.responses?.[status] === undefined ? 'default' : status}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/paths/${pointer(route.template)}/${method.toLowerCase()}/responses/${operation.responses?.[status] === undefined ? 'default' : status}/content/application~1json/schema` });
    validators.set(key, validate);
  }
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${method} ${route.template} answered ${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  if (validate(body)) return null;
  return `${method} ${route.template} answered ${status} with a body its documentation does not describe: ${JSON.stringify(validate.errors?.slice(0, 5))}`;
}

/** `response`, once checked against the document (a test fails at the request that broke it). */
export async function documented(method: string, url: string, response: Response): Promise<Response> {
  const problem = await undocumented(method, url, response);
  if (problem !== null) throw new Error(`the OpenAPI document does not describe this answer: ${problem}`);
  return response;
}
