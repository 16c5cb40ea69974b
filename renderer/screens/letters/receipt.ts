/**
 * A receipt for one saved gift, printed at the table: a receipt run for exactly that gift,
 * followed until its PDF is written, then the PDF in a hidden frame that opens the print
 * dialog. Gift entry calls it from a saved row's Receipt button and from Ctrl+P.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatDollars } from '#shared/money.ts';
import type { DonationDetail } from '#shared/schemas/donations.ts';
import { errorMessage } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { useToast } from '../../ui/index.ts';
import { finishedRun, printPdf } from './pdf.ts';

/** The gift a receipt is for, as a row shows it. */
export type ReceiptGift = Pick<DonationDetail, 'id' | 'contactName' | 'donationAmount'>;

/** The keys that print a receipt in gift entry, as aria-keyshortcuts and as said to people. */
export const RECEIPT_KEYS = { aria: 'Control+P', said: 'Ctrl+P' } as const;

export function usePrintReceipt() {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const printing = useMutation({
    mutationFn: async (gift: ReceiptGift) => {
      const run = await finishedRun(api, await api.letters.start({ kind: 'receipt', donationId: gift.id }));
      return { run, pdf: await api.letters.pdf(run.id) };
    },
    onMutate: (gift) => ({
      making: toast.show({
        message: `Making the receipt for ${gift.contactName} (${formatDollars(gift.donationAmount)})…`,
      }),
    }),
    onSettled: (_r, _e, _gift, context) => {
      if (context) toast.dismiss(context.making);
    },
    onSuccess: ({ pdf }, gift) => {
      printPdf(pdf, `Receipt for ${gift.contactName}`);
      toast.show({ message: `Receipt for ${gift.contactName}: sent to print.`, tone: 'success' });
      void qc.invalidateQueries({ queryKey: qk.letterRuns });
    },
    onError: (err, gift) =>
      toast.show({ message: `No receipt for ${gift.contactName}: ${errorMessage(err)}`, tone: 'error' }),
  });
  return {
    print: (gift: ReceiptGift) => printing.mutate(gift),
    busyFor: printing.isPending ? printing.variables?.id : undefined,
  };
}
