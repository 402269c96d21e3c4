import { MembershipCheckNotice } from '#web/features/accounts/components/membership-check-notice.tsx';
import { ExpiryWarningNotice } from '#web/features/classrooms/components/expiry-warning-notice.tsx';

/** The notices a signed-in member may get when the app starts (loaded only for them). */
export function MemberNotices() {
  return (
    <>
      <MembershipCheckNotice />
      <ExpiryWarningNotice />
    </>
  );
}
