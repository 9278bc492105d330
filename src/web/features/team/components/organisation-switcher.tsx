import { useId } from 'react';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useChooseOrganisation, useOrganisations } from '../api/team';
import { roleNames } from '../role-names';

/**
 * The organisation the dashboard works in, for a person who belongs to more than one (an
 * agency's staff, a client invited by several agencies). Nothing shows for one organisation.
 */
export function OrganisationSwitcher() {
  const id = useId();
  const organisations = useOrganisations();
  const choose = useChooseOrganisation();
  const data = organisations.data;
  if (!data || data.organisations.length < 2) return null;
  return (
    <div>
      <Label htmlFor={id}>Organisation</Label>
      <NativeSelect
        id={id}
        value={data.active.organisationId}
        disabled={choose.isPending}
        onChange={(event) => {
          const chosen = data.organisations.find((o) => o.organisationId === event.target.value);
          choose
            .mutateAsync(chosen?.personal ? null : event.target.value)
            .then((answer) =>
              toast({
                title: `Working in ${answer.active.organisationName}`,
                variant: 'success',
              }),
            )
            .catch((error: unknown) =>
              toast({
                title: 'Could not switch',
                description: messageOf(error, 'Please try again.'),
                variant: 'destructive',
              }),
            );
        }}
      >
        {data.organisations.map((organisation) => (
          <option key={organisation.organisationId} value={organisation.organisationId}>
            {organisation.organisationName} ({roleNames[organisation.role]})
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
