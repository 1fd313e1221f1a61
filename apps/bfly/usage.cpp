// How bfly talks about its own command line. Help is wrapped to 100
// columns (CLI11 prints each description as one line, however long). A
// command line CLI11 cannot parse is one line `bfly: error: ...` naming the
// command and the bad word or value, and exit status 2, the usual status of
// a usage error (CLI11's own are 104 to 114, two lines, no "bfly: error:"):
// a misspelt command or option gets the closest name by edit distance.
#include <algorithm>
#include <sstream>

#include "commands.hpp"

namespace bfly::cli {
namespace {

constexpr std::size_t kHelpWidth = 100;
constexpr int kUsageError = 2;

// `text` with each line broken at spaces into lines of at most `width`
// characters (a longer word stays whole, on a line of its own).
std::string wrap(const std::string& text, std::size_t width) {
  std::string out;
  std::istringstream lines(text);
  std::string line;
  bool first_line = true;
  while (std::getline(lines, line)) {
    if (!first_line) out += '\n';
    first_line = false;
    std::size_t used = 0;
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      if (used > 0 && used + 1 + word.size() > width) {
        out += '\n';
        used = 0;
      } else if (used > 0) {
        out += ' ';
        ++used;
      }
      out += word;
      used += word.size();
    }
  }
  return out;
}

class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter() { column_width(30); }
  std::string make_description(const CLI::App* app) const override {
    const std::string text = CLI::Formatter::make_description(app);
    return text.empty() ? text : wrap(text, kHelpWidth) + "\n";
  }
  std::string make_footer(const CLI::App* app) const override {
    const std::string text = CLI::Formatter::make_footer(app);
    return text.empty() ? text : wrap(text, kHelpWidth) + "\n";
  }
  // The right-hand column: format_help indents the lines after a '\n'.
  std::string make_option_desc(const CLI::Option* option) const override {
    return wrap(CLI::Formatter::make_option_desc(option), kHelpWidth - column_width_);
  }
  std::string make_subcommand(const CLI::App* sub) const override {
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true), wrap(sub->get_description(), kHelpWidth - column_width_),
                             column_width_);
    return out.str();
  }
};

// Optimal string alignment distance: edits, an adjacent swap counting one.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The candidate closest to `word`, where one is close (about a third of its
// letters wrong at most); ties go to one with the same first letter (ffft:
// fft rather than ifft), then to the first listed.
std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  bool best_first = false;
  for (const std::string& c : candidates) {
    const std::size_t distance = edit_distance(word, c);
    const bool first = !word.empty() && !c.empty() && word[0] == c[0];
    if (distance < best_distance || (distance == best_distance && first && !best_first)) {
      best = c;
      best_distance = distance;
      best_first = first;
    }
  }
  return best;
}

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

// `text` then `separator`, or nothing for bfly itself (an empty name).
std::string then(const std::string& text, const char* separator) { return text.empty() ? "" : text + separator; }

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

std::vector<std::string> command_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app->get_subcommands([](const CLI::App* s) { return !s->get_disabled(); }))
    if (!sub->get_name().empty()) names.push_back(sub->get_name());
  return names;
}

// The long option names of `app` without their dashes (--help included).
std::vector<std::string> option_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app->get_options())
    for (const std::string& name : option->get_lnames()) names.push_back(name);
  return names;
}

// Where the parse got to: bfly, then each command chosen in turn, and the
// name the user typed for each ("", "cache", "cache warm").
struct Path {
  std::vector<const CLI::App*> apps;
  std::vector<std::string> names;
};

Path chosen(const CLI::App& app) {
  Path path{{&app}, {""}};
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (const CLI::App* sub : path.apps.back()->get_subcommands())
      if (sub->parsed()) {
        path.names.push_back(then(path.names.back(), " ") + sub->get_name());
        path.apps.push_back(sub);
        deeper = true;
        break;
      }
  }
  return path;
}

std::string unknown_command(const CLI::App* app, const std::string& name, const std::string& word) {
  const std::string typed = "'" + then(name, " ") + word + "'";
  const std::vector<std::string> names = command_names(app);
  const std::string guess = closest(word, names);
  if (!guess.empty()) return "unknown command " + typed + " (did you mean '" + then(name, " ") + guess + "'?)";
  return "unknown command " + typed + " (commands: " + join(names, ", ") + "; bfly " + then(name, " ") +
         "--help describes them)";
}

std::string no_command(const CLI::App* app, const std::string& name) {
  return "no command given" + (name.empty() ? "" : " after '" + name + "'") +
         " (commands: " + join(command_names(app), ", ") + "; bfly " + then(name, " ") + "--help describes them)";
}

// `word` as --name=value, --name or -n; the value is not named back.
std::string unknown_option(const CLI::App* app, const std::string& name, const std::string& word) {
  const std::size_t letters = word.find_first_not_of('-');
  const bool bare = letters == std::string::npos || word[letters] == '=';  // "--", "--=x"
  const std::string option = bare ? word : word.substr(0, word.find('='));
  const std::string guess = bare ? "" : closest(option.substr(letters), option_names(app));
  const std::string said = then(name, ": ") + "unknown option '" + option + "'";
  if (!guess.empty()) return said + " (did you mean '--" + guess + "'?)";
  return said + " (bfly " + then(name, " ") + "--help lists the options)";
}

// How the type CLI11 names (INT, UINT, FLOAT, ...) reads in a sentence.
std::string expected(const CLI::Option* option) {
  if (option == nullptr) return "";
  const std::string type = option->get_type_name();
  if (type.rfind("UINT", 0) == 0) return " (expected a whole number >= 0)";
  if (type.rfind("INT", 0) == 0) return " (expected a whole number)";
  if (type.rfind("FLOAT", 0) == 0) return " (expected a number)";
  return type.empty() || type == "TEXT" ? "" : " (expected " + type + ")";
}

std::string usage(const CLI::App* app, const std::string& name) {
  const std::string text = CLI::Formatter().make_usage(app, "bfly" + (name.empty() ? "" : " " + name));
  const std::size_t from = text.find(": ") + 2;  // after "Usage: "
  return " (usage: " + text.substr(from, text.find('\n') - from) + ")";
}

// The one line (after "bfly: error: ") for a parse error of `app`. CLI11
// names what it could not take in its messages, in words of its own; the
// ones a user meets most are said here in bfly's.
std::string describe(const CLI::App& app, const CLI::ParseError& e) {
  const Path path = chosen(app);
  const CLI::App* last = path.apps.back();
  const std::string& name = path.names.back();
  // The first word no command took, the deepest command's first.
  std::string word;
  std::size_t owner = path.apps.size() - 1;
  for (std::size_t i = path.apps.size(); i-- > 0 && word.empty();)
    for (const std::string& left : path.apps[i]->remaining())
      if (left != "--" && word.empty()) {  // "--" only ends the options
        word = left;
        owner = i;
      }
  std::string message = e.what();
  std::replace(message.begin(), message.end(), '\n', ' ');

  if (word.size() > 1 && word[0] == '-') return unknown_option(path.apps[owner], path.names[owner], word);
  if (last->get_require_subcommand_min() > 0 && last->get_subcommands().empty())
    return word.empty() ? no_command(last, name) : unknown_command(last, name, word);
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && !word.empty()) {
    const std::string& where = path.names[owner];
    return then(where, ": ") + "unexpected argument '" + word + "'" + usage(path.apps[owner], where);
  }
  // "Could not convert: --n = abc"
  const std::string convert = "Could not convert: ";
  const std::size_t equals = message.find(" = ");
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr && message.rfind(convert, 0) == 0 &&
      equals != std::string::npos) {
    const std::string option = message.substr(convert.size(), equals - convert.size());
    return then(name, " ") + option + ": invalid value '" + message.substr(equals + 3) + "'" +
           expected(last->get_option_no_throw(option));
  }
  // "--norm: 1 required TEXT missing"
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && ends_with(message, " missing") &&
      message.find(':') != std::string::npos)
    return then(name, " ") + message.substr(0, message.find(':')) + ": needs a value";
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) return then(name, ": ") + message + usage(last, name);
  return then(name, ": ") + message;
}

}  // namespace

std::shared_ptr<CLI::FormatterBase> help_formatter() { return std::make_shared<HelpFormatter>(); }

int parse_error_status(const CLI::App& app, const CLI::ParseError& e, std::ostream& out, std::ostream& err) {
  // --help and --version: what CLI11 prints, status 0.
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e, out, err);
  err << "bfly: error: " << describe(app, e) << '\n' << std::flush;
  return kUsageError;
}

}  // namespace bfly::cli
