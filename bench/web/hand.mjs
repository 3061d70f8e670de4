// The strongest plain-JavaScript baseline we could write: the six planes
// of a view-projection matrix (Gribb-Hartmann) in local doubles, absolute
// normals precomputed, one pass over a flat Float32Array of AABB records
// (center xyz, half xyz), the center-radius test (RTR 22.10.2) with an
// early exit, side planes first (they cull most in a wide scene), the
// result as a bitmask written a byte at a time. No allocation in the loop.
export function handPlanes(e) {
  // row i of the column-major matrix: e[i], e[4 + i], e[8 + i], e[12 + i]
  const row = (i) => [e[i], e[4 + i], e[8 + i], e[12 + i]];
  const [r0, r1, r2, r3] = [row(0), row(1), row(2), row(3)];
  const add = (a, b, s) => a.map((v, k) => v + s * b[k]);
  // left, right, bottom, top, far, near
  const p = [add(r3, r0, 1), add(r3, r0, -1), add(r3, r1, 1), add(r3, r1, -1), add(r3, r2, -1), add(r3, r2, 1)];
  const f = new Float64Array(42);
  p.forEach((q, k) => { f.set([q[0], q[1], q[2], q[3], Math.abs(q[0]), Math.abs(q[1]), Math.abs(q[2])], 7 * k); });
  return f;
}

export function handCull(P, a, n, mask) {
  const ax = P[0], ay = P[1], az = P[2], aw = P[3], aax = P[4], aay = P[5], aaz = P[6];
  const bx = P[7], by = P[8], bz = P[9], bw = P[10], bax = P[11], bay = P[12], baz = P[13];
  const cx_ = P[14], cy_ = P[15], cz_ = P[16], cw = P[17], cax = P[18], cay = P[19], caz = P[20];
  const dx = P[21], dy = P[22], dz = P[23], dw = P[24], dax = P[25], day = P[26], daz = P[27];
  const ex = P[28], ey = P[29], ez = P[30], ew = P[31], eax = P[32], eay = P[33], eaz = P[34];
  const fx = P[35], fy = P[36], fz = P[37], fw = P[38], fax = P[39], fay = P[40], faz = P[41];
  let visible = 0, byte = 0;
  for (let i = 0, o = 0; i < n; i++, o += 6) {
    const x = a[o], y = a[o + 1], z = a[o + 2], hx = a[o + 3], hy = a[o + 4], hz = a[o + 5];
    let v = 0;
    if (ax * x + ay * y + az * z + aw + aax * hx + aay * hy + aaz * hz >= 0 &&
        bx * x + by * y + bz * z + bw + bax * hx + bay * hy + baz * hz >= 0 &&
        cx_ * x + cy_ * y + cz_ * z + cw + cax * hx + cay * hy + caz * hz >= 0 &&
        dx * x + dy * y + dz * z + dw + dax * hx + day * hy + daz * hz >= 0 &&
        ex * x + ey * y + ez * z + ew + eax * hx + eay * hy + eaz * hz >= 0 &&
        fx * x + fy * y + fz * z + fw + fax * hx + fay * hy + faz * hz >= 0) {
      v = 1;
      visible++;
    }
    byte |= v << (i & 7);
    if ((i & 7) === 7) { mask[i >> 3] = byte; byte = 0; }
  }
  if (n & 7) mask[n >> 3] = byte;
  return visible;
}
