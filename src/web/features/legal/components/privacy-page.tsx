import { LegalPage, supportEmail } from './legal-page';

export function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy" updated="22 November 2026">
      <p>
        This policy explains what Conformly collects when you use the service, why, and what you can
        ask of us.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>Your email address, to run your account and send you reset codes and reports.</li>
        <li>The website addresses you scan, and the results of those scans.</li>
        <li>
          Your IP address and browser metadata (such as the browser name), to keep accounts safe and
          limit abuse.
        </li>
        <li>
          If you report an issue on a public status page: your message, the email you give and, if
          you choose, your name.
        </li>
      </ul>
      <h2>What we do not do</h2>
      <p>We do not sell your data, and we do not share it with advertisers.</p>
      <h2>Where it is processed</h2>
      <p>Data is processed and stored in the United States only.</p>
      <h2>Children</h2>
      <p>
        The service is not offered to children under 13, and we do not knowingly collect their data.
      </p>
      <h2>Your choices</h2>
      <p>
        You can ask for a copy of your data or for its deletion at any time by writing to{' '}
        <a className="text-brand-600 underline" href={`mailto:${supportEmail}`}>
          {supportEmail}
        </a>
        .
      </p>
    </LegalPage>
  );
}
