/**
 * The DER reader takes a real request's subject and refuses, without
 * throwing, whatever is not a well-formed CertificationRequest.
 */
import { describe, expect, it } from 'vitest';
import { base64Decode } from '../golang/base64.ts';
import { certificateRequestSubject } from './der.ts';

// `openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=angela/O=dev"`, base64 of the DER.
const REAL = 'MIHaMIGBAgEAMB8xDzANBgNVBAMMBmFuZ2VsYTEMMAoGA1UECgwDZGV2MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEDXI/8YYnMPheQSo2Hyc2rtqPpLtWB6xu44qMLF88/YNN/ep1pwn2lXEtGknTS9KXrI/j+x75z4Yfdb2NsGBVHKAAMAoGCCqGSM49BAMCA0gAMEUCIDltNwMrDDeA1kpW+Z+XRAKPT98DZKmnGuogDSsEcIqWAiEAjct0zN2AidzDfpcY9M7OccouqiqRAzTu3UQguMKMEFs=';

describe('certificateRequestSubject', () => {
	it("reads the CN and O of a real request", () => {
		expect(certificateRequestSubject(base64Decode(REAL).bytes)).toEqual({ commonName: 'angela', organizations: ['dev'] });
	});

	it('refuses truncated, empty and non-request input without throwing', () => {
		const bytes = base64Decode(REAL).bytes;
		for (let cut = 0; cut < bytes.length; cut += 7) expect(certificateRequestSubject(bytes.slice(0, cut))).toBeUndefined();
		expect(certificateRequestSubject([])).toBeUndefined();
		expect(certificateRequestSubject([0x02, 0x01, 0x00])).toBeUndefined();
		expect(certificateRequestSubject([0x30, 0x84, 0xff, 0xff, 0xff, 0xff])).toBeUndefined();
	});
});
