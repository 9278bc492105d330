import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { dismissToast, useCurrentToast } from '../../lib/toast-store';
import { cn } from '../../lib/cn';

const variants = {
  default: 'border-slate-300 bg-white text-slate-900',
  success: 'border-ok bg-white text-slate-900',
  destructive: 'border-bad bg-bad text-white',
};

/** Shows the one current toast (lib/toast-store); a new toast replaces it. */
export function Toaster() {
  const current = useCurrentToast();
  return (
    <ToastPrimitive.Provider swipeDirection="right" duration={5000}>
      {current && (
        <ToastPrimitive.Root
          key={current.id}
          onOpenChange={(open) => {
            if (!open) dismissToast(current.id);
          }}
          type={current.variant === 'destructive' ? 'foreground' : 'background'}
          className={cn(
            'relative grid gap-1 rounded-lg border-2 p-4 pr-10 shadow-lg',
            variants[current.variant ?? 'default'],
          )}
        >
          <ToastPrimitive.Title className="font-semibold">{current.title}</ToastPrimitive.Title>
          {current.description && (
            <ToastPrimitive.Description className="text-sm">
              {current.description}
            </ToastPrimitive.Description>
          )}
          <ToastPrimitive.Close className="absolute top-2 right-2 rounded p-1" aria-label="Dismiss">
            <X aria-hidden="true" className="h-4 w-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-[100] flex w-full max-w-sm flex-col p-4" />
    </ToastPrimitive.Provider>
  );
}
