// Where the control plane lives under every server of the kit (the fake, the proxy): a request under it is the
// control plane's, any other the API's. Its own module so a server can tell the two apart without the fake's assembly.

/** Path prefix of the control plane. */
export const CONTROL_PREFIX = '/__mock/';
