/* The exp of SATC_FORM_TRS's log scales as a public function: the
 * expression every path evaluates per lane (core/internal.h). */
#include "../core/internal.h"

float satc_expf(float x) { return satc_expf_ref(x); }
