/**
 * Whether this browser runs on a phone or tablet. Used for two choices only: a phone is not
 * offered "continue on your phone" (it is the phone), and a document is photographed with the
 * rear camera. User-Agent Client Hints (`navigator.userAgentData.mobile`) answer directly where
 * they exist (Chromium); elsewhere the User-Agent string does, and iPadOS, which calls itself a
 * Mac, is told apart by its touch screen.
 */
export interface DeviceHints {
  userAgent: string;
  maxTouchPoints: number;
  /** `navigator.userAgentData?.mobile`; undefined where Client Hints are missing. */
  clientHintsMobile: boolean | undefined;
}

export function isMobileDevice(hints: DeviceHints): boolean {
  if (hints.clientHintsMobile === true) return true;
  if (/Android|iPhone|iPad|iPod|Mobile|Mobi/i.test(hints.userAgent)) return true;
  // iPadOS 13+ sends a desktop Safari User-Agent; a "Mac" with a touch screen is an iPad.
  if (/Macintosh/.test(hints.userAgent) && hints.maxTouchPoints > 1) return true;
  return false;
}

/** The hints of this browser. */
export function currentDeviceHints(): DeviceHints {
  const clientHints = (navigator as Navigator & { userAgentData?: { mobile?: boolean } }).userAgentData;
  return { userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints ?? 0, clientHintsMobile: clientHints?.mobile };
}
