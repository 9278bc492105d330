import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';

/**
 * The dashboard's navigation drawer on narrow screens: a Radix dialog (focus moves in and stays,
 * Escape or the close button closes it, focus returns to the menu button that opened it). Its
 * own chunk: the frame loads it when the menu button is neared, not with every screen.
 */
export function DashboardDrawer({
  open,
  onOpenChange,
  menuButton,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens it (not a Radix trigger, so the dialog is told where focus returns). */
  menuButton: RefObject<HTMLButtonElement | null>;
  children: ReactNode;
}) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <DialogPrimitive.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            menuButton.current?.focus();
          }}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col overflow-y-auto bg-white p-4 shadow-xl"
        >
          <DialogPrimitive.Title className="sr-only">Dashboard navigation</DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">
            The sections of your dashboard
          </DialogPrimitive.Description>
          <DialogPrimitive.Close className="mb-2 self-end rounded-md p-2 text-slate-700 hover:bg-slate-100">
            <X aria-hidden="true" className="h-5 w-5" />
            <span className="sr-only">Close navigation</span>
          </DialogPrimitive.Close>
          {children}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
