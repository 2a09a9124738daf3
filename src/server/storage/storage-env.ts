import { resolve } from 'node:path'
import { z } from 'zod'

const boolString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

/** A quota in MB (1 MB = 1024 × 1024 bytes): 1 MB to 1 PB. */
const quotaMb = z.coerce
  .number()
  .int()
  .min(1)
  .max(1024 ** 3)
  .optional()

/**
 * The per-hospital disk quota (src/server/storage/quota.ts): STORAGE_QUOTA_MB for every plan,
 * or STORAGE_QUOTA_MB_<PLAN> for one plan (it wins over STORAGE_QUOTA_MB); unset, the plan's
 * default. Part of env.ts's schema (through s3EnvShape), so start-up refuses a bad value.
 */
export const quotaEnvShape = {
  STORAGE_QUOTA_MB: quotaMb,
  STORAGE_QUOTA_MB_STARTER: quotaMb,
  STORAGE_QUOTA_MB_PROFESSIONAL: quotaMb,
  STORAGE_QUOTA_MB_ENTERPRISE: quotaMb,
  STORAGE_QUOTA_MB_HOSPITAL_ENTERPRISE: quotaMb,
  STORAGE_QUOTA_MB_CUSTOM_ENTERPRISE: quotaMb,
}

/**
 * File storage settings (docs/decisions/036-file-storage.md), part of env.ts's schema. With
 * S3_BUCKET set, files go to that S3-compatible bucket (shared by every instance); otherwise
 * to DATA_DIR/uploads. Credentials may also come from the SDK's usual chain (instance role).
 */
export const s3EnvShape = {
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be an S3 bucket name' })
    .optional(),
  /** An S3-compatible endpoint (MinIO, R2, Spaces…); unset for AWS itself. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style URLs (endpoint/bucket/key), which MinIO and most self-hosted servers need. */
  S3_FORCE_PATH_STYLE: boolString.default(false),
  /** Prefix put before every key, so several apps (or environments) can share one bucket. */
  S3_PREFIX: z
    .string()
    .regex(/^(?:[a-z0-9][a-z0-9._-]*\/)*$/, { message: 'must be like "arogya/" (ending in /)' })
    .default(''),
  // The disk quota's settings travel with the storage's (env.ts spreads this shape).
  ...quotaEnvShape,
}

/** Both S3 keys or neither (env.ts's superRefine calls this too, so start-up refuses it). */
export function checkS3Env(
  env: { S3_ACCESS_KEY_ID?: string | undefined; S3_SECRET_ACCESS_KEY?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: ['S3_SECRET_ACCESS_KEY'],
      message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all',
    })
  }
}

const storageShape = z.object({ DATA_DIR: z.string().default('./data'), ...s3EnvShape })
const storageSchema = storageShape.superRefine(checkS3Env)

export interface S3Settings {
  bucket: string
  endpoint: string | undefined
  region: string
  accessKeyId: string | undefined
  secretAccessKey: string | undefined
  forcePathStyle: boolean
  prefix: string
}

export interface StorageSettings {
  /** DATA_DIR/uploads, resolved. */
  uploadsDir: string
  /** Set when S3_BUCKET is. */
  s3: S3Settings | undefined
}

/** The storage settings alone (loadEnv has already refused bad values at start-up). */
export function storageEnv(
  source: Record<string, string | undefined> = process.env,
): StorageSettings {
  const keys = Object.keys(storageShape.shape)
  const picked = Object.fromEntries(keys.map((k) => [k, source[k] === '' ? undefined : source[k]]))
  const parsed = storageSchema.safeParse(picked)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  const env = parsed.data
  return {
    uploadsDir: resolve(env.DATA_DIR, 'uploads'),
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
          prefix: env.S3_PREFIX,
        }
      : undefined,
  }
}
