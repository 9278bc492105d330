import { useRef, useState } from 'react';
import type { DiscoveryResult } from '#contract/discovery.js';
import { track } from '../../../lib/analytics';
import { useDiscoverPages } from '../api/discover-pages';
import {
  candidatesFrom,
  removeCandidate,
  selectAll,
  selectedUrls,
  selectionProblem,
  toggleCandidate,
  type CandidatePage,
  type SelectionRules,
} from '../page-selection';
import { useFocusRequest } from './use-focus-request';

export interface PageChooserOptions {
  rules: SelectionRules;
  /** The screen's name in analytics: 'smart_scan' or 'smart_discovery'. */
  feature: string;
  /** What the screen says when discovery fails. */
  failure: (error: unknown) => string;
  /** How many discovered pages start selected (homepage first); all when not given. */
  preselect?: number;
  /** The polite announcement once pages are listed. */
  foundNote: (count: number) => string;
  /** Runs when a new discovery starts, before anything is asked of the server. */
  onDiscoverStart?: () => void;
}

/**
 * The page-choosing step shared by smart scan and smart discovery (spec §2): a homepage address
 * to discover from, the discovered and custom pages with their selection, the polite note for
 * screen readers, and focus on the list's heading once the list appears.
 */
export function usePageChooser(options: PageChooserOptions) {
  const { rules, feature, failure, preselect, foundNote, onDiscoverStart } = options;
  const [homeInput, setHomeInput] = useState('');
  const [discovery, setDiscovery] = useState<DiscoveryResult | null>(null);
  const [pages, setPages] = useState<CandidatePage[]>([]);
  const [note, setNote] = useState('');
  const [discoverError, setDiscoverError] = useState<string | null>(null);
  const discover = useDiscoverPages();
  const listHeadingRef = useRef<HTMLHeadingElement>(null);
  const focusLater = useFocusRequest();

  const selected = selectedUrls(pages);

  const onDiscover = (url: string) => {
    setDiscoverError(null);
    onDiscoverStart?.();
    track('feature_usage', { feature, action: 'discover_pages', url });
    discover.mutate(url, {
      onSuccess: (result) => {
        setDiscovery(result);
        setPages(candidatesFrom(result, preselect));
        setNote(foundNote(result.discovered.length));
        focusLater(() => listHeadingRef.current);
      },
      onError: (error) => {
        setDiscovery(null);
        setPages([]);
        setDiscoverError(failure(error));
      },
    });
  };

  const remove = (url: string) => {
    setPages((list) => removeCandidate(list, url, rules));
    setNote(`Removed ${url}.`);
    // Announced, and focus goes on from the list's heading: the removed button had it.
    focusLater(() => listHeadingRef.current);
  };

  /** Back to an empty address and no pages, as on arrival. */
  const clear = () => {
    discover.reset();
    setHomeInput('');
    setDiscovery(null);
    setPages([]);
    setNote('');
    setDiscoverError(null);
  };

  return {
    rules,
    discovery,
    pages,
    note,
    selected,
    problem: selectionProblem(selected.length),
    listHeadingRef,
    /** What the homepage form needs: <DiscoverForm {...chooser.form} />. */
    form: {
      url: homeInput,
      onUrlChange: setHomeInput,
      onDiscover,
      isPending: discover.isPending,
      error: discoverError,
    },
    toggle: (url: string) => setPages((list) => toggleCandidate(list, url, rules)),
    selectAll: (all: boolean) => setPages((list) => selectAll(list, all, rules)),
    remove,
    /** A custom page added (or an already listed one selected), with what to announce. */
    replace: (list: CandidatePage[], message: string) => {
      setPages(list);
      setNote(message);
    },
    clear,
  };
}

export type PageChooserState = ReturnType<typeof usePageChooser>;
