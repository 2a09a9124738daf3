import { describe, expect, it } from 'vitest'
import { plural } from './plural'

describe('plural', () => {
  it('is singular for exactly one, plural otherwise, with Indian grouping', () => {
    expect(plural(1, 'patient')).toBe('1 patient')
    expect(plural(2, 'patient')).toBe('2 patients')
    expect(plural(0, 'comment')).toBe('0 comments')
    expect(plural(1, 'comment')).toBe('1 comment')
    expect(plural(125000, 'lead')).toBe('1,25,000 leads')
    expect(plural(3, 'reply', 'replies')).toBe('3 replies')
  })
})
