// What a server bound beyond loopback must say (or refuse) before it serves: the fake's server and the proxy's.
import { isLoopbackHost } from '../core/request/host-check.ts';
import { CONTROL_TOKEN_HEADER } from './request-guards.ts';

/**
 * The warning to print before serving on `host`, or undefined on a loopback address. Throws when the address is not a
 * loopback one and the control plane would be left without a token and without an explicit opt-out.
 * @example exposureWarning('0.0.0.0', { controlToken: 's3cret' }) // 'warning: listening on 0.0.0.0 exposes the fake…'
 */
export function exposureWarning(
  host: string,
  options: { controlToken?: string; unsafeOpenControlPlane?: boolean },
): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  if (options.controlToken === undefined && options.unsafeOpenControlPlane !== true) {
    throw new Error(
      `--host ${host} makes the fake reachable from the network, where anyone could reset it or read its journal through the control plane; pass --control-token <secret> (or MOCK_CONTROL_TOKEN), or --unsafe-open-control-plane to leave it open`,
    );
  }
  const control =
    options.controlToken === undefined
      ? 'its control plane (/__mock/) is OPEN to anyone who can connect (--unsafe-open-control-plane)'
      : `its control plane (/__mock/) needs the token in ${CONTROL_TOKEN_HEADER}`;
  return `warning: listening on ${host} exposes the fake to the network: /v1 accepts any token signed with its JWT secret (the default one is public; set MOCK_JWT_SECRET), ${control}, and requests must name a loopback host or one given with --allowed-host.`;
}
