/**
 * The authentication filter: who sent the request. The client certificate
 * (known to the transport) wins, else the bearer token is checked by the
 * service account token authenticator, else the request is anonymous; a
 * token that is present but not valid is a 401. The reason a token was
 * refused goes to the server's log (the trace), never to the client. The
 * authenticator union itself is ../../auth/authentication.ts and the token
 * check ../../auth/token-authenticator.ts.
 *
 * Mirrors
 * staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go
 * (WithAuthentication).
 */
import type { ApiResponse, UserInfo } from '../../../api/request.ts';
import { parseRfc3339 } from '../../../golang/time.ts';
import { authenticateRequest } from '../../auth/authentication.ts';
import { authenticateServiceAccountToken, type TokenAuthentication } from '../../auth/token-authenticator.ts';
import type { ApiServerContext, Caller } from '../../config.ts';
import * as errors from '../../errors.ts';

export class Authentication {
	constructor(private readonly server: ApiServerContext) {}

	/** The service account token authenticator (../../auth/token-authenticator.ts). */
	private checkToken(token: string): TokenAuthentication {
		const { server } = this;
		const config = server.tokenConfig();
		return authenticateServiceAccountToken(token, { key: config.key, issuers: [config.issuer], apiAudiences: config.apiAudiences }, { get: server.readCore }, server.kernel.wallMs(), parseRfc3339);
	}

	/** The authenticator union: certificate, then bearer token, then anonymous; a bad token is a 401. */
	authenticate(caller: Caller): Caller | ApiResponse {
		if (caller.certificateError !== undefined) {
			this.server.emit({ action: 'authenticate', msg: `unable to authenticate the request: [${caller.certificateError}]` });
			return errors.unauthorized();
		}
		if (caller.bearerToken === undefined) return caller;
		const result = authenticateRequest(caller.user, caller.bearerToken, (token) => this.checkToken(token));
		if (!result.ok) {
			// Upstream logs "Unable to authenticate the request" with the reason; the client only learns 401.
			this.server.emit({ action: 'authenticate', msg: `unable to authenticate the request: ${result.reason}` });
			return errors.unauthorized();
		}
		if (result.by === 'token') this.server.emit({ action: 'authenticate', msg: `bearer token is service account ${result.user.username}` });
		return { process: caller.process, user: result.user };
	}

	/**
	 * Authenticates a bearer token the way a request's would be, for a
	 * client that speaks HTTP itself (curl): the user, or undefined for a
	 * token the server rejects (401). Traced like a request's authentication.
	 */
	authenticateToken(token: string): UserInfo | undefined {
		const result = this.checkToken(token);
		this.server.emit({ action: 'authenticate', msg: result.ok ? `bearer token is service account ${result.user.username}` : `unable to authenticate the request: ${result.reason}` });
		return result.ok ? result.user : undefined;
	}
}
