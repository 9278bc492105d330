import { Check, X } from 'lucide-react';
import { passwordRules } from '../password-rules';

/** Updates as the person types; each line says whether it is met in words, not colour alone. */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  return (
    <ul id={id} className="grid gap-1 text-sm" aria-label="Password requirements">
      {passwordRules.map((rule) => {
        const met = rule.test(password);
        return (
          <li
            key={rule.id}
            data-met={met}
            className={
              met ? 'flex items-center gap-2 text-ok' : 'flex items-center gap-2 text-slate-700'
            }
          >
            {met ? (
              <Check aria-hidden="true" className="h-4 w-4" />
            ) : (
              <X aria-hidden="true" className="h-4 w-4" />
            )}
            <span>
              {rule.label}
              <span className="sr-only">{met ? ' (met)' : ' (not met)'}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
