// satc status codes (include/satc.h) and the Error the package throws.

export const STATUS_NAMES = Object.freeze({
  0: 'SATC_OK',
  [-1]: 'SATC_ERR_NULL',
  [-2]: 'SATC_ERR_NONFINITE',
  [-3]: 'SATC_ERR_NEAR',
  [-4]: 'SATC_ERR_FAR',
  [-5]: 'SATC_ERR_BOUNDS',
  [-6]: 'SATC_ERR_FRAME',
  [-7]: 'SATC_ERR_MATRIX',
  [-8]: 'SATC_ERR_FLAGS',
  [-9]: 'SATC_ERR_RANGE',
  [-10]: 'SATC_ERR_ISA',
  [-11]: 'SATC_ERR_NOMEM',
  [-12]: 'SATC_ERR_BOX',
  [-13]: 'SATC_ERR_LAYOUT',
  [-14]: 'SATC_ERR_PYRAMID',
  [-15]: 'SATC_ERR_UP',
  [-16]: 'SATC_ERR_DIRECTION',
});

export const Status = Object.freeze(
  Object.fromEntries(Object.entries(STATUS_NAMES).map(([k, v]) => [v.slice(5), Number(k)])),
);

/** An error carrying a satc status code; message: "satc: <what>: SATC_ERR_X (<satc_status_string>)". */
export class SatcError extends Error {
  constructor(status, what, description) {
    const name = STATUS_NAMES[status] ?? `status ${status}`;
    super(`satc: ${what}: ${name} (${description})`);
    this.name = 'SatcError';
    /** The numeric satc_status (negative). */
    this.status = status;
    /** Its name, e.g. "SATC_ERR_MATRIX". */
    this.statusName = name;
  }
}
