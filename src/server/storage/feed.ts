import type { Readable, Writable } from 'node:stream'

/**
 * Pipes source into dest without ever destroying source: a request body that is refused
 * part-way stays open so that the 4xx still reaches the client (the route's connection is
 * then closed, see raw-body.ts). A source that fails or closes early fails dest. Returns the
 * function that detaches them.
 */
export function feed(source: Readable, dest: Writable): () => void {
  const onError = (error: Error) => dest.destroy(error)
  const onClose = () => {
    if (!source.readableEnded) dest.destroy(new Error('The upload was interrupted'))
  }
  source.on('error', onError)
  source.on('close', onClose)
  // A source that failed before it was handed over (a refused file, a dropped connection).
  if (source.errored) dest.destroy(source.errored)
  else if (source.destroyed) onClose()
  else source.pipe(dest)
  return () => {
    source.unpipe(dest)
    source.removeListener('error', onError)
    source.removeListener('close', onClose)
  }
}
