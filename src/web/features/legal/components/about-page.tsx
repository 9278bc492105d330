import { Link } from 'react-router';
import { engineList, enginesInWords } from '#contract/vocabulary.js';
import { paths } from '../../../lib/paths';
import { Button } from '../../../components/ui/button';
import { LegalPage } from './legal-page';

export function AboutPage() {
  return (
    <LegalPage title="About Conformly">
      <p>
        Conformly helps website owners, agencies and compliance teams find accessibility barriers
        and show the work they do to remove them.
      </p>
      <h2>How we test</h2>
      <p>
        Every page is loaded once in a real browser and checked by {enginesInWords()}:{' '}
        {engineList()}. Findings on the same element under the same rule are merged into one issue,
        so you fix problems, not duplicates.
      </p>
      <h2>What you get</h2>
      <ul>
        <li>A score and a list of issues by impact for each scan</li>
        <li>A public status page and an embeddable badge per domain</li>
        <li>A Statement of Ongoing Compliance Efforts (PDF) and VPAT 2.4 drafts (Word)</li>
      </ul>
      <div className="mt-8">
        <Button asChild>
          <Link to={paths.home.getHref()}>Scan your website</Link>
        </Button>
      </div>
    </LegalPage>
  );
}
