import { useEffect, useRef, useState } from 'react';
import type { ElementBox } from '#contract/finding.js';

interface Size {
  width: number;
  height: number;
}

/**
 * The page screenshot with one element outlined: the box is absolutely positioned over the image,
 * in percentages of the image, so it stays on the element at any width. The screenshot starts at
 * the top-left of the page and is `box.pageWidth` CSS pixels wide before scaling; an element below
 * the captured part of a long page says so instead of drawing off the image.
 */
export function ElementScreenshot({
  src,
  box,
  label,
}: {
  src: string;
  box: ElementBox;
  /** What the element is, for the image's text alternative. */
  label: string;
}) {
  const [size, setSize] = useState<Size | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const outline = useRef<HTMLDivElement>(null);
  // Page height (CSS px) the image covers, from its own proportions.
  const coveredHeight = size ? (size.height * box.pageWidth) / size.width : 0;
  const outside = size !== null && box.y >= coveredHeight;

  useEffect(() => {
    // Scroll the frame (not the page) so the outlined element is in view.
    const element = outline.current;
    const container = frame.current;
    if (!element || !container) return;
    container.scrollTop = Math.max(0, element.offsetTop - container.clientHeight / 3);
  }, [size, box.x, box.y]);

  const percent = (value: number, of: number) => `${Math.min(100, (value / of) * 100)}%`;
  return (
    <figure className="mt-3">
      <div
        ref={frame}
        className="relative max-h-96 overflow-auto rounded-md border border-slate-300 bg-slate-50"
        // A scrollable image must scroll from the keyboard too (axe scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        role="group"
        aria-label={`Screenshot of the page, scrollable, with ${label} outlined`}
      >
        <div className="relative overflow-hidden">
          <img
            src={src}
            alt={`Screenshot of the page with ${label} outlined in red`}
            className="block w-full"
            onLoad={(event) =>
              setSize({
                width: event.currentTarget.naturalWidth,
                height: event.currentTarget.naturalHeight,
              })
            }
          />
          {size && !outside && (
            <div
              ref={outline}
              data-element-outline=""
              aria-hidden="true"
              className="pointer-events-none absolute rounded-sm outline-3 outline-offset-2 outline-red-700"
              style={{
                left: percent(box.x, box.pageWidth),
                top: percent(box.y, coveredHeight),
                width: percent(Math.max(box.width, 4), box.pageWidth),
                height: percent(Math.max(box.height, 4), coveredHeight),
                boxShadow: '0 0 0 9999px rgb(15 23 42 / 0.25)',
              }}
            />
          )}
        </div>
      </div>
      <figcaption className="mt-1 text-xs text-slate-700">
        {outside
          ? 'This element is further down the page than the screenshot reaches.'
          : 'The element is outlined in red on the screenshot taken during the scan.'}
      </figcaption>
    </figure>
  );
}
