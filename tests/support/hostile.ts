import fc from 'fast-check'

/** Strings that have broken real systems: SQL, LIKE wildcards, NUL, bidi, emoji, lone surrogates... */
export const nastyStrings = [
  "'; drop table patients; --",
  "Robert'); DROP TABLE patients;--",
  "' or '1'='1",
  '%',
  '_',
  '\\',
  '\u0000',
  'a\u0000b',
  '\u202Eevil\u202C',
  '\u200B',
  '\uFEFF',
  '\uD800',
  'a\uDFFFb',
  '𝕬𝖗𝖔𝖌𝖞𝖆',
  'नमस्ते',
  'مرحبا',
  '😀'.repeat(60),
  ' ',
  '\t\n\r',
  '',
  'null',
  'undefined',
  '<script>alert(1)</script>',
  '{"$ne":null}',
  '__proto__',
  'x'.repeat(10_000),
  '9'.repeat(40),
  '+',
  '9876543210',
  '+919876543210',
  '0000-00-00',
  '2024-02-30',
  '1899-12-31',
  '9999-12-31',
  'a@b.co',
  'A@B.CO ',
  'male',
  'MALE',
  '12345678901234',
] as const

/** A string from anywhere on the spectrum: random, full-unicode, or a known troublemaker. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.constantFrom(...nastyStrings.filter((s) => s.length <= 2)),
      maxLength: 20,
    }),
  },
  { weight: 3, arbitrary: fc.constantFrom(...nastyStrings) },
)

/** Any JSON value of the wrong shape: numbers at the edges, booleans, null, nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, -0, 9876543210),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.array(fc.array(fc.array(fc.integer(), { maxLength: 3 }), { maxLength: 3 }), { maxLength: 3 }),
)

/** Plausible values per patient field, so that a fair share of bodies are accepted. */
export const plausible: Record<string, fc.Arbitrary<unknown>> = {
  name: fc.oneof(
    fc.constantFrom('Meera Joshi', 'Dr. Rajesh Iyer', "Mary D'Souza", 'Ó Briain'),
    fc.string({ minLength: 1, maxLength: 60 }),
  ),
  email: fc.oneof(
    fc.stringMatching(/^[A-Za-z][a-z0-9]{0,8}(\.[a-z0-9]{1,5})?@[a-z]{2,8}\.(com|in|co\.in)$/),
    fc.constantFrom('', null, ' Meera.Joshi@Example.COM '),
  ),
  phone: fc.constantFrom(
    '9876543210',
    '98765 43210',
    '09876543210',
    '+91 98220 12345',
    '020 2550 1234',
    '+1 212 555 0123',
  ),
  dateOfBirth: fc.oneof(
    fc
      .date({
        min: new Date('1900-01-01T00:00:00Z'),
        max: new Date('2025-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10)),
    fc.constant(null),
  ),
  gender: fc.constantFrom('male', 'female', 'other', 'prefer_not_to_say', null),
  address: fc.oneof(fc.string({ maxLength: 120 }), fc.constant(null)),
  emergencyContact: fc.oneof(fc.string({ maxLength: 80 }), fc.constant(null)),
  medicalHistory: fc.oneof(fc.string({ maxLength: 200 }), fc.constant(null)),
  allergies: fc.oneof(fc.string({ maxLength: 80 }), fc.constant(null)),
  insuranceProvider: fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null)),
  insuranceNumber: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(null)),
  abhaNumber: fc.oneof(
    fc.constantFrom('12-3456-7890-1234', '12345678901234', '', null),
    fc.stringMatching(/^\d{14}$/),
  ),
}

export const patientFieldNames = Object.keys(plausible)

/**
 * A patient body: all plausible (a subset of fields when not `required`), or plausible with
 * one field given a hostile value, or hostile throughout, sometimes with unknown extra keys.
 */
export function patientBody(required: boolean): fc.Arbitrary<Record<string, unknown>> {
  const requiredKeys = required ? ['name', 'phone'] : []
  const good = fc.record(plausible, { requiredKeys })
  const oneBad = fc
    .tuple(good, fc.constantFrom(...patientFieldNames), hostileValue)
    .map(([body, field, value]) => ({ ...body, [field]: value }))
  const allBad = fc.record(Object.fromEntries(patientFieldNames.map((f) => [f, hostileValue])), {
    requiredKeys,
  })
  const body = fc.oneof(
    { weight: 4, arbitrary: good },
    { weight: 4, arbitrary: oneBad },
    { weight: 1, arbitrary: allBad },
  )
  const extra = fc.oneof(
    { weight: 7, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.dictionary(hostileString, hostileValue, { minKeys: 1, maxKeys: 2 }),
    },
  )
  return fc.tuple(body, extra).map(([b, more]) => (more ? { ...more, ...b } : b))
}

/** Anything at all that JSON can carry, or a raw string that may not even be JSON. */
export const anyBody: fc.Arbitrary<{ raw: string } | { json: unknown }> = fc.oneof(
  fc.anything({ maxDepth: 3 }).map((json) => ({ json })),
  fc.jsonValue({ maxDepth: 4 }).map((json) => ({ json })),
  fc.string({ maxLength: 60 }).map((raw) => ({ raw })),
  fc
    .constantFrom(
      '{',
      '{"name":',
      '[]',
      'null',
      '""',
      '{"name":"A","phone":"9876543210"',
      '\u0000',
      '{"a":1}{"b":2}',
    )
    .map((raw) => ({ raw })),
)

/** Field names the JSON routes read (auth, patients, demo requests), to aim hostile values at. */
export const knownFieldNames = [
  ...patientFieldNames,
  'email',
  'password',
  'currentPassword',
  'newPassword',
  'revokeOtherSessions',
  'rememberMe',
  'callbackURL',
  'redirectTo',
  'userId',
  'token',
  'code',
  'trustDevice',
  'banReason',
  'banExpiresIn',
  'hospitalName',
  'clinicName',
  'message',
  'city',
  '__proto__',
  'constructor',
]

/** An object whose keys are fields some route reads, each with a random or hostile value. */
export const hostileObject: fc.Arbitrary<{ json: unknown }> = fc
  .dictionary(
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...knownFieldNames) }, hostileString),
    hostileValue,
    { maxKeys: 6 },
  )
  .map((json) => ({ json }))
