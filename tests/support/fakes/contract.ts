import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { parse as parseYaml } from 'yaml'

/**
 * The providers' official OpenAPI files (../shared/contracts, beside the repository: Twilio's
 * and SendGrid's JSON, Meta's WhatsApp YAML), loaded once, and validators for an operation's
 * request body and parameters built from them with Ajv. The fakes refuse, in the provider's own
 * error shape, any request these reject: the adapters are checked against the provider's
 * contract, not against our memory of it.
 */

const here = dirname(fileURLToPath(import.meta.url))
export const contractsDir = resolve(here, '../../../../shared/contracts')

export type ContractFile =
  | 'twilio/twilio_api_v2010.json'
  | 'sendgrid/tsg_mail_v3.json'
  | 'meta-whatsapp/business-messaging-api_v23.0.yaml'

interface OpenApiDoc {
  openapi: string
  paths: Record<string, Record<string, Operation | undefined>>
  components: Record<string, Record<string, unknown>>
}

interface Parameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  schema?: object
}

interface Operation {
  parameters?: (Parameter | { $ref: string })[]
  requestBody?: { $ref: string } | { content: Record<string, { schema: object }> }
}

const docs = new Map<ContractFile, { doc: OpenApiDoc; ajv: Ajv }>()

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule

function load(file: ContractFile): { doc: OpenApiDoc; ajv: Ajv } {
  const cached = docs.get(file)
  if (cached) return cached
  const text = readFileSync(resolve(contractsDir, file), 'utf8')
  const doc = (file.endsWith('.yaml') ? parseYaml(text) : JSON.parse(text)) as OpenApiDoc
  if (doc.openapi.startsWith('3.1')) closeAllOf(doc)
  const options = {
    strict: false,
    allErrors: true,
    validateSchema: false,
    coerceTypes: 'array' as const,
  }
  // 3.1 documents are JSON Schema 2020-12; 3.0 ones are draft-04-like with `nullable`.
  const ajv = doc.openapi.startsWith('3.1') ? new Ajv2020(options) : new Ajv(options)
  addFormats(ajv)
  // Twilio's own formats: an E.164 number, or a channel address such as whatsapp:+91….
  ajv.addFormat('phone-number', /^(\+[1-9]\d{6,14}|[a-z-]+:\+?[\w.@-]+|[A-Za-z0-9 ]{1,11})$/)
  ajv.addFormat('date-time-rfc-2822', true)
  ajv.addFormat('uri-template', true)
  ajv.addSchema({ ...doc, $id: 'doc' } as object)
  const entry = { doc, ajv }
  docs.set(file, entry)
  return entry
}

/**
 * Meta's file closes a message type with `allOf: [Base, { additionalProperties: false, … }]`,
 * which in JSON Schema refuses the base's own fields (messaging_product, to…): no message could
 * pass. What it means is 2020-12's `unevaluatedProperties: false` on the whole, so that is what
 * the member's `additionalProperties: false` becomes.
 */
function closeAllOf(node: unknown): void {
  if (!node || typeof node !== 'object') return
  if (Array.isArray(node)) {
    for (const item of node) closeAllOf(item)
    return
  }
  const record = node as Record<string, unknown>
  if (Array.isArray(record.allOf)) {
    for (const member of record.allOf as Record<string, unknown>[]) {
      if (member.additionalProperties === false) {
        delete member.additionalProperties
        record.unevaluatedProperties = false
      }
    }
  }
  for (const value of Object.values(record)) closeAllOf(value)
}

function deref<T>(doc: OpenApiDoc, value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value) {
    const parts = value.$ref.replace(/^#\//, '').split('/')
    let node: unknown = doc
    for (const part of parts) node = (node as Record<string, unknown>)[part]
    return deref(doc, node as T | { $ref: string })
  }
  return value
}

/** Ajv's errors as short lines: "/to must match format "phone-number"". */
export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
}

export interface OperationValidator {
  /** Problems with the body (empty when it matches the contract). Coerces form strings in place. */
  body: (value: unknown) => string[]
  /** Required parameters missing or of the wrong shape, for path, query and header values. */
  params: (values: {
    path?: Record<string, string>
    query?: Record<string, string>
    header?: Record<string, string | string[] | undefined>
  }) => string[]
}

/** Validators for one operation (e.g. POST /2010-04-01/Accounts/{AccountSid}/Messages.json). */
export function operationValidator(
  file: ContractFile,
  path: string,
  method: 'get' | 'post',
  contentType?: string,
): OperationValidator {
  const { doc, ajv } = load(file)
  const item = doc.paths[path]
  const op = item?.[method]
  if (!item || !op) throw new Error(`${file} has no ${method.toUpperCase()} ${path}`)
  const shared = (item as { parameters?: Operation['parameters'] }).parameters ?? []
  const parameters = [...shared, ...(op.parameters ?? [])].map((p) => deref<Parameter>(doc, p))
  const paramChecks = parameters.map((p) => ({
    p,
    check: p.schema ? ajv.compile(inDoc(p.schema)) : null,
  }))
  let bodyCheck: ValidateFunction | null = null
  if (op.requestBody) {
    const rb = deref<{ content: Record<string, { schema: object }> }>(doc, op.requestBody)
    const media = rb.content[contentType ?? Object.keys(rb.content)[0] ?? '']
    if (!media) throw new Error(`${path} takes no ${contentType ?? 'body'}`)
    bodyCheck = ajv.compile(inDoc(media.schema))
  }
  return {
    body(value) {
      if (!bodyCheck) return []
      return bodyCheck(value) ? [] : describeErrors(bodyCheck.errors)
    },
    params(values) {
      const problems: string[] = []
      for (const { p, check } of paramChecks) {
        const source = values[p.in as 'path' | 'query' | 'header'] ?? {}
        const key = p.in === 'header' ? p.name.toLowerCase() : p.name
        const value = source[key]
        if (value === undefined) {
          if (p.required && p.in !== 'header') problems.push(`${p.name} is required`)
          else if (p.required && p.in === 'header' && key !== 'user-agent')
            problems.push(`header ${p.name} is required`)
          continue
        }
        if (check && !check(value)) problems.push(`${p.name} ${describeErrors(check.errors)[0]}`)
      }
      return problems
    },
  }
}

/** A schema of the document, its local $refs pointed at the document Ajv holds as "doc". */
function inDoc(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"doc#/')) as object
}

/**
 * A validator for one named schema (components/schemas/<name>). Where that schema has an
 * OpenAPI `discriminator` (Meta's Message by `type`), the value is checked against the schema
 * its discriminator names, as the discriminator means, and an unmapped value is refused.
 */
export function schemaValidator(file: ContractFile, name: string): (value: unknown) => string[] {
  const { doc, ajv } = load(file)
  const schema = doc.components.schemas?.[name] as
    { discriminator?: { propertyName: string; mapping?: Record<string, string> } } | undefined
  if (!schema) throw new Error(`${file} has no schema ${name}`)
  const compiled = new Map<string, ValidateFunction>()
  const compile = (ref: string) => {
    let check = compiled.get(ref)
    if (!check) {
      check = ajv.compile({ $ref: ref.replace(/^#\//, 'doc#/') })
      compiled.set(ref, check)
    }
    return check
  }
  return (value) => {
    let ref = `#/components/schemas/${name}`
    const d = schema.discriminator
    if (d?.mapping) {
      const key = (value as Record<string, unknown> | null)?.[d.propertyName]
      const mapped = typeof key === 'string' ? d.mapping[key] : undefined
      if (!mapped) return [`/${d.propertyName} must be one of ${Object.keys(d.mapping).join(', ')}`]
      ref = mapped
    }
    const check = compile(ref)
    return check(value) ? [] : describeErrors(check.errors)
  }
}
