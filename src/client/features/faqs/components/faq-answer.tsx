import { Fragment } from 'react'
import { type FaqLine, LINK_REL, parseFaqAnswer } from '@/shared/faq-format'

/**
 * An FAQ answer's paragraphs, lists and links as React elements (src/shared/faq-format.ts):
 * the author's text only ever becomes text nodes, and a link only an http(s), mailto or tel href.
 */
function Line({ line }: { line: FaqLine }) {
  return line.map((part, i) =>
    part.kind === 'text' ? (
      <Fragment key={i}>{part.text}</Fragment>
    ) : (
      <a
        key={i}
        href={part.href}
        rel={LINK_REL}
        target="_blank"
        className="text-brand-700 underline underline-offset-2"
      >
        {part.text}
      </a>
    ),
  )
}

export function FaqAnswer({ answer }: { answer: string }) {
  return (
    <div className="space-y-2 text-sm text-slate-700">
      {parseFaqAnswer(answer).map((block, i) => {
        if (block.kind === 'paragraph')
          return (
            <p key={i}>
              {block.lines.map((line, j) => (
                <Fragment key={j}>
                  {j > 0 ? <br /> : null}
                  <Line line={line} />
                </Fragment>
              ))}
            </p>
          )
        const List = block.ordered ? 'ol' : 'ul'
        return (
          <List key={i} className={block.ordered ? 'list-decimal pl-5' : 'list-disc pl-5'}>
            {block.items.map((item, j) => (
              <li key={j}>
                <Line line={item} />
              </li>
            ))}
          </List>
        )
      })}
    </div>
  )
}
