// The tile IR's text form (.tir): printing functions, ops, types and attributes (grammar in printer.hpp).
#include "tegula/ir/printer.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <map>

namespace tegula::ir {
namespace {

bool is_ident(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::string format_double(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d);  // shortest text that reads back to d
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// Value names in textual order (see printer.hpp). Tolerates malformed IR: ids out of range or
// defined twice are skipped, never indexed.
class namer {
 public:
  explicit namer(const function& f) : names_(f.values.size()) {
    for (const param& p : f.params) define(f, p.value, p.name.empty() ? value_name(f, p.value) : p.name);
    walk(f, f.body);
  }
  std::string operator()(value_id v) const {
    if (v >= 0 && std::size_t(v) < names_.size() && !names_[std::size_t(v)].empty()) return names_[std::size_t(v)];
    return "%?" + std::to_string(v);
  }

 private:
  static std::string value_name(const function& f, value_id v) {
    return v >= 0 && std::size_t(v) < f.values.size() ? f.values[std::size_t(v)].name : std::string();
  }
  void define(const function& f, value_id v, const std::string& hint) {
    if (v < 0 || std::size_t(v) >= names_.size() || !names_[std::size_t(v)].empty()) return;
    std::string n;
    if (is_ident(hint)) {
      int& k = repeats_[hint];
      n = k == 0 ? hint : hint + "." + std::to_string(k);
      ++k;
    } else {
      n = std::to_string(next_++);
    }
    names_[std::size_t(v)] = "%" + n;
    (void)f;
  }
  void walk(const function& f, const region& r) {
    for (value_id a : r.args) define(f, a, value_name(f, a));
    for (const op& o : r.ops) {
      for (value_id v : o.results) define(f, v, value_name(f, v));
      for (const region& inner : o.regions) walk(f, inner);
    }
  }

  std::vector<std::string> names_;
  std::map<std::string, int> repeats_;
  int next_ = 0;
};

class printer {
 public:
  printer(const function& f, bool locs) : f_(f), names_(f), locs_(locs) {}

  std::string function_text() {
    out_ = "func @" + (is_ident(f_.name) ? f_.name : quote(f_.name)) + "(";
    for (std::size_t i = 0; i < f_.params.size(); ++i)
      out_ += (i ? ", " : "") + names_(f_.params[i].value) + ": " + type_of(f_.params[i].value);
    out_ += ")";
    out_ += loc(f_.loc);
    out_ += " {\n";
    for (const op& o : f_.body.ops) op_text(o, 1, true);
    out_ += "}\n";
    return out_;
  }

  std::string op_line(const op& o) {
    op_text(o, 0, false);
    if (!out_.empty() && out_.back() == '\n') out_.pop_back();
    return out_;
  }

 private:
  std::string type_of(value_id v) const {
    return v >= 0 && std::size_t(v) < f_.values.size() ? to_string(f_.values[std::size_t(v)].t) : "<no type>";
  }
  std::string loc(const location& l) const {
    if (!locs_ || !l.known()) return {};
    return " loc(" + quote(l.file) + ":" + std::to_string(l.line) + ":" + std::to_string(l.column) + ")";
  }
  std::string list(const std::vector<value_id>& vs) const {
    std::string s;
    for (std::size_t i = 0; i < vs.size(); ++i) s += (i ? ", " : "") + names_(vs[i]);
    return s;
  }

  void op_text(const op& o, int depth, bool with_regions) {
    const std::string pad(std::size_t(2 * depth), ' ');
    out_ += pad;
    if (!o.results.empty()) out_ += list(o.results) + " = ";
    out_ += info(o.kind).text;
    if (!o.operands.empty()) out_ += " " + list(o.operands);
    if (!o.attrs.empty()) {
      out_ += " {";
      for (std::size_t i = 0; i < o.attrs.size(); ++i) {
        const std::string& k = o.attrs[i].first;
        out_ += (i ? ", " : "") + (is_ident(k) ? k : quote(k)) + " = " + print_attribute(o.attrs[i].second);
      }
      out_ += "}";
    }
    for (const region& r : o.regions) {
      if (!with_regions) {
        out_ += " {...}";
        continue;
      }
      out_ += " {\n";
      if (!r.args.empty()) {
        out_ += pad + "^(";
        for (std::size_t i = 0; i < r.args.size(); ++i) out_ += (i ? ", " : "") + names_(r.args[i]) + ": " + type_of(r.args[i]);
        out_ += "):\n";
      }
      for (const op& inner : r.ops) op_text(inner, depth + 1, true);
      out_ += pad + "}";
    }
    if (!o.results.empty()) {
      out_ += " : ";
      for (std::size_t i = 0; i < o.results.size(); ++i) out_ += (i ? ", " : "") + type_of(o.results[i]);
    }
    out_ += loc(o.loc) + "\n";
  }

  const function& f_;
  namer names_;
  bool locs_;
  std::string out_;
};

}  // namespace

std::string quote(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string q = "\"";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': q += "\\\""; break;
      case '\\': q += "\\\\"; break;
      case '\n': q += "\\n"; break;
      case '\t': q += "\\t"; break;
      case '\r': q += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          q += "\\x";
          q += hex[c >> 4];
          q += hex[c & 15];
        } else {
          q += ch;
        }
    }
  }
  return q + "\"";
}

std::string print_attribute(const attribute& a) {
  if (auto* i = std::get_if<std::int64_t>(&a)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&a)) return format_double(*d);
  if (auto* s = std::get_if<std::string>(&a)) return quote(*s);
  if (auto* l = std::get_if<std::vector<std::int64_t>>(&a)) {
    std::string t = "[";
    for (std::size_t i = 0; i < l->size(); ++i) t += (i ? ", " : "") + std::to_string((*l)[i]);
    return t + "]";
  }
  return std::string(name(std::get<dtype>(a)));
}

std::string print(const function& f, bool with_locations) { return printer(f, with_locations).function_text(); }

std::string print_op(const function& f, const op& o) { return printer(f, false).op_line(o); }

std::string print_value(const function& f, value_id v) { return namer(f)(v); }

}  // namespace tegula::ir
