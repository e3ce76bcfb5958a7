#pragma once

#include "engine/eval/CompiledModelSource.h"

#include <string>

namespace sysid::eval {

// The C text of a model's native library (NativeCode compiles it). For every program slot the
// model has (ModelPrograms.h):
//   void sysid_vK(double t, const double* x, const double* v, double* out)
//                                                         its values, as the interpreter writes them;
//   void sysid_dK(double t, const double* x, const double* v, double* a, double* b, double* c)
//                                                         its dense layout (denseLayout), where it has one;
// and for f with its Jacobians (RhsWithStateJacobian, RhsWithJacobians, as written and switched):
//   void sysid_sK(double t, const double* x, const double* v, const double* S, size_t m, const int* column,
//                 double* dx, double* dS)
//                                                         f and the sensitivity right-hand side
//                                                         dS_c = df/dx S_c (+ df/dp_l where column[l] = c).
// and, so that loading the library looks up two symbols rather than three per slot,
//   const size_t sysid_slots;  const sysid_function sysid_functions[3 * sysid_slots];
//                                                         per slot its v, d and s functions (0 where none).
// v holds the variables [t, x, p, u, m], of which the functions read p, u and m: t and x are arguments,
// so an integrator's call needs no copy of its state into the evaluator. Each function is the interpreter's program (ExpressionTape)
// written out instruction by instruction, shared subexpressions computed once, so that compiled
// without floating-point contraction it computes the same values to the last bit. A program of more
// than 20000 instructions is left out (it stays with the interpreter), and one of more than 3000 is
// written once: its dense and sensitivity forms call its values function.
std::string nativeSource(const CompiledModelSource& source);

}  // namespace sysid::eval
