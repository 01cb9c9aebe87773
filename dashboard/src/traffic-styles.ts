import { css } from 'lit';

/** What the two traffic sections share (dash-session-traffic.ts, dash-delivery-traffic.ts): counters and a grid of charts. */
export const trafficStyles = css`
  .counters {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1.5rem;
    margin: 0 0 1rem;
    padding: 0;
    list-style: none;
  }
  .counters strong {
    display: block;
    font-size: 1.375rem;
    font-variant-numeric: tabular-nums;
  }
  .charts {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 24rem), 1fr));
    gap: 0 1.5rem;
  }
  form.actions .field {
    margin: 0;
  }
`;
