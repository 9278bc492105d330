import { Pause, Play } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { usePrefersReducedMotion } from '../hooks/use-prefers-reduced-motion';

/** Recorded from the real app by scripts/record-landing-video.ts (npm run video:landing). */
const videoSrc = '/media/landing-demo.webm';
const posterSrc = '/media/landing-demo.jpg';

/**
 * The landing page's product video (spec §2 'Video'): a silent, looping recording of a real scan.
 * It plays on its own only when the visitor has not asked for reduced motion, and a visible
 * button pauses and plays it (WCAG 2.2.2); the caption says what it shows, as it has no sound.
 */
export function ProductVideo() {
  const video = useRef<HTMLVideoElement>(null);
  const reducedMotion = usePrefersReducedMotion();
  const [playing, setPlaying] = useState(false);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    if (reducedMotion) element.pause();
    // A browser may refuse to start it (data saver, power saving): the poster and Play remain.
    else element.play().catch(() => undefined);
  }, [reducedMotion]);

  const toggle = () => {
    const element = video.current;
    if (!element) return;
    if (element.paused) element.play().catch(() => undefined);
    else element.pause();
  };

  return (
    <figure className="mt-12 w-full max-w-4xl">
      <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg">
        <video
          ref={video}
          className="block aspect-video w-full"
          width={1280}
          height={720}
          muted
          loop
          playsInline
          preload={reducedMotion ? 'none' : 'auto'}
          poster={posterSrc}
          aria-label="Conformly product demo"
          aria-describedby="product-video-caption"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
        >
          <source src={videoSrc} type="video/webm" />
        </video>
      </div>
      <div className="mt-3 flex flex-col items-center gap-3 sm:flex-row sm:items-start sm:text-left">
        <Button type="button" variant="outline" size="sm" className="shrink-0" onClick={toggle}>
          {playing ? (
            <Pause aria-hidden="true" className="h-4 w-4" />
          ) : (
            <Play aria-hidden="true" className="h-4 w-4" />
          )}
          {playing ? 'Pause' : 'Play'}
          <span className="sr-only"> the product demo</span>
        </Button>
        <figcaption id="product-video-caption" className="text-sm text-slate-700">
          A 14-second silent demo of a real scan: a bakery&apos;s address is typed into Conformly,
          axe-core, Pa11y and IBM Equal Access check the page, and the report opens with a score of
          60/100, four violations (three critical) and the list of issues to fix.
        </figcaption>
      </div>
    </figure>
  );
}
