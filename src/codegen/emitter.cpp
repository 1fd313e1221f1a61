#include "codegen/emitter.hpp"

#include <cstdio>

namespace bfly::codegen {

void Emitter::line(const std::string& text) {
  out_ << std::string(static_cast<std::size_t>(indent_) * 2, ' ') << text << '\n';
}

void Emitter::open(const std::string& text) {
  line(text.empty() ? "{" : text + " {");
  ++indent_;
}

void Emitter::close(const std::string& tail) {
  --indent_;
  line("}" + tail);
}

std::string Emitter::temp(const std::string& expr) {
  const std::string name = "t" + std::to_string(next_++);
  line("const cpx " + name + " = " + expr + ";");
  return name;
}

std::string Emitter::real(long double value) const {
  char buffer[64];
  if (precision_ == Precision::Single) {
    // 9 significant digits round-trip any float.
    std::snprintf(buffer, sizeof buffer, "%.9ef", static_cast<double>(static_cast<float>(value)));
  } else {
    std::snprintf(buffer, sizeof buffer, "%.17e", static_cast<double>(value));
  }
  std::string text = buffer;
  return value < 0 ? "(" + text + ")" : text;
}

}  // namespace bfly::codegen
