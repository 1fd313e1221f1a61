// Accumulates kernel source with indentation and hands out fresh names for
// temporaries. Complex arithmetic is written with the helper functions every
// kernel's preamble defines (cmake, cadd, csub, cmul, cscale, crot_mi), so the
// text it builds is the same in every dialect.
#pragma once

#include <sstream>
#include <string>

#include "bfly/bfly.hpp"

namespace bfly::codegen {

class Emitter {
 public:
  explicit Emitter(Precision precision) : precision_(precision) {}

  void line(const std::string& text);
  void open(const std::string& text);        // "text {" and indent
  void close(const std::string& tail = "");  // dedent and "}" + tail
  // Emits `const cpx tN = expr;` and returns "tN".
  std::string temp(const std::string& expr);
  // A real literal in the working precision, exact to its last digit.
  std::string real(long double value) const;
  Precision precision() const { return precision_; }
  std::string text() const { return out_.str(); }

 private:
  Precision precision_;
  std::ostringstream out_;
  int indent_ = 0;
  int next_ = 0;
};

}  // namespace bfly::codegen
