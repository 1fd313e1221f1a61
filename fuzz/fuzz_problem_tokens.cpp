// libFuzzer target: problem tokens (Problem::parse) and the text helpers
// under them (text::parse_shape, text::parse_int), each given the whole
// input. Properties: only bfly::Error escapes; a parsed problem is valid,
// its printed token parses to the same problem and prints the same again,
// and its layout queries run without overflow; a parsed shape or integer
// printed back parses to the same value; axes are the integers typed.
#include <cstdlib>

#include "bfly/bfly.hpp"
#include "fuzz_util.hpp"
#include "problem/text.hpp"

namespace {

void check_problem(const std::string& token) {
  bfly::Problem p;
  try {
    p = bfly::Problem::parse(token);
  } catch (const bfly::Error&) {
    return;
  }
  // The axes as typed (nothing truncated to fit an int).
  std::vector<long long> typed;
  const std::vector<std::string> fields = bfly::text::split(token, '_');
  for (std::size_t i = 7; i < fields.size(); ++i)
    if (fields[i].compare(0, 2, "ax") == 0)
      for (const std::string& a : bfly::text::split(fields[i].substr(2), '.'))
        typed.push_back(std::strtoll(a.c_str(), nullptr, 10));
  if (typed != std::vector<long long>(p.axes.begin(), p.axes.end())) bfly::fuzz::fail("'" + token + "': axes changed");
  const std::string printed = p.token();
  bfly::Problem again;
  try {
    p.validate();
    again = bfly::Problem::parse(printed);
  } catch (const bfly::Error& e) {
    bfly::fuzz::fail("'" + token + "' parsed, but its token '" + printed + "' does not: " + e.what());
  }
  if (again != p || again.token() != printed)
    bfly::fuzz::fail("'" + token + "' -> '" + printed + "' -> '" + again.token() + "'");
  // What planning asks of a valid problem.
  (void)p.length();
  (void)p.elements();
  (void)p.bytes();
  (void)p.scale();
  (void)p.input_layout();
  (void)p.output_layout();
  (void)p.input_extent();
  (void)p.output_extent();
}

void check_shape(const std::string& text) {
  std::vector<std::int64_t> shape;
  try {
    shape = bfly::text::parse_shape(text);
  } catch (const bfly::Error&) {
    return;
  }
  const std::string printed = bfly::text::shape(shape);
  if (bfly::text::parse_shape(printed) != shape) bfly::fuzz::fail("shape '" + text + "' -> '" + printed + "'");
}

void check_int(const std::string& text) {
  std::int64_t value = 0;
  try {
    value = bfly::text::parse_int(text, "value");
  } catch (const bfly::Error&) {
    return;
  }
  if (bfly::text::parse_int(std::to_string(value), "value") != value)
    bfly::fuzz::fail("integer '" + text + "' -> " + std::to_string(value));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  check_problem(text);
  check_shape(text);
  check_int(text);
  return 0;
}
