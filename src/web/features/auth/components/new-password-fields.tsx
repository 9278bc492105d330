import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '../../../components/ui/form-field';
import { PasswordInput } from './password-input';

/**
 * 'New password' and 'Confirm new password', as both reset screens ask for them. Each screen
 * keeps its own field names and schema (spec §5 gives them different rules and messages).
 */
export function NewPasswordFields({
  password,
  confirm,
  errors,
}: {
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  errors: { password?: string | undefined; confirm?: string | undefined };
}) {
  return (
    <>
      <FormField label="New password" error={errors.password}>
        {(ids) => <PasswordInput {...ids} autoComplete="new-password" {...password} />}
      </FormField>
      <FormField label="Confirm new password" error={errors.confirm}>
        {(ids) => <PasswordInput {...ids} autoComplete="new-password" {...confirm} />}
      </FormField>
    </>
  );
}
