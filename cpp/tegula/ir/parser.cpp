// The tile IR's text form (.tir): a recursive-descent parser that reports the first error and never crashes.
#include "tegula/ir/parser.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include "tegula/support/error.hpp"

namespace tegula::ir {
namespace {

constexpr int max_depth = 200;     // region nesting: bounds the recursion on hostile input
constexpr int max_array_rank = 64;  // type::array allocates `rank` entries

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
std::string hex_byte(char c) {
  const char* digits = "0123456789abcdef";
  unsigned char u = static_cast<unsigned char>(c);
  return {digits[u >> 4], digits[u & 15]};
}

class parser {
 public:
  parser(const std::string& s, const std::string& file) : s_(s), file_(file) {}

  function run() {
    std::size_t at = (ws(), p_);
    if (word() != "func") {
      p_ = at;
      err("'func'");
    }
    expect('@', "'@' and the function name");
    bool quoted = peek('"');
    f_.name = quoted ? string_lit() : word();
    if (!quoted && f_.name.empty()) err("a function name");
    expect('(', "'('");
    if (!eat(')')) {
      do {
        std::string n;
        value_id v = def_value(&n);
        expect(':', "':' and the parameter type");
        f_.values[std::size_t(v)].t = parse_type();
        f_.params.push_back({v, n});
        bind(v);
      } while (eat(','));
      expect(')', "',' or ')'");
    }
    f_.loc = opt_loc();
    expect('{', "'{' to open the function body");
    ops_until_close(f_.body);
    ws();
    if (p_ < s_.size()) err("the end of the input");
    return std::move(f_);
  }

 private:
  // ---- characters and tokens
  char cur() const { return p_ < s_.size() ? s_[p_] : '\0'; }
  void ws() {
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') ++p_;
      else if (c == '/' && p_ + 1 < s_.size() && s_[p_ + 1] == '/')
        while (p_ < s_.size() && s_[p_] != '\n') ++p_;
      else break;
    }
  }
  bool peek(char c) {
    ws();
    return p_ < s_.size() && s_[p_] == c;
  }
  bool eat(char c) {
    if (!peek(c)) return false;
    ++p_;
    return true;
  }
  void expect(char c, const char* what) {
    if (!eat(c)) err(what);
  }
  std::string word() {  // an identifier, or "" (consuming nothing)
    ws();
    std::size_t b = p_;
    if (!ident_start(cur())) return {};
    while (ident_char(cur())) ++p_;
    return s_.substr(b, p_ - b);
  }
  bool peek_word(const char* w) {
    std::size_t save = p_;
    bool yes = word() == w;
    p_ = save;
    return yes;
  }

  [[noreturn]] void err(const std::string& what) {
    ws();
    int line = 1, col = 1;
    for (std::size_t i = 0; i < p_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') ++line, col = 1;
      else ++col;
    }
    std::string found;
    if (p_ >= s_.size()) {
      found = "the end of the input";
    } else {
      std::size_t e = p_;
      if (ident_char(s_[e]) || s_[e] == '%') {
        ++e;
        while (e < s_.size() && e - p_ < 24 && (ident_char(s_[e]) || s_[e] == '.')) ++e;
      } else {
        ++e;
      }
      found = "'";
      for (std::size_t i = p_; i < e; ++i)
        found += std::isprint(static_cast<unsigned char>(s_[i])) ? std::string(1, s_[i]) : "\\x" + hex_byte(s_[i]);
      found += "'";
    }
    fail(error_kind::invalid_argument, file_, ":", line, ":", col, ": expected ", what, ", found ", found);
  }
  [[noreturn]] void err_here(std::size_t at, const std::string& message) {
    p_ = at;
    int line = 1, col = 1;
    for (std::size_t i = 0; i < p_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') ++line, col = 1;
      else ++col;
    }
    fail(error_kind::invalid_argument, file_, ":", line, ":", col, ": ", message);
  }

  // ---- literals
  std::int64_t int_lit(const char* what) {
    ws();
    std::size_t b = p_;
    if (cur() == '-') ++p_;
    if (!std::isdigit(static_cast<unsigned char>(cur()))) {
      p_ = b;
      err(what);
    }
    while (std::isdigit(static_cast<unsigned char>(cur()))) ++p_;
    std::int64_t v = 0;
    auto r = std::from_chars(s_.data() + b, s_.data() + p_, v);
    if (r.ec != std::errc() || r.ptr != s_.data() + p_) err_here(b, "integer literal out of the int64 range");
    return v;
  }
  std::string string_lit() {
    expect('"', "a string");
    std::string out;
    while (true) {
      if (p_ >= s_.size()) err("a closing '\"'");
      char c = s_[p_++];
      if (c == '"') return out;
      if (c == '\n') {
        --p_;
        err("a closing '\"' before the end of the line");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      char e = cur();
      ++p_;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'x': {
          int v = 0;
          for (int i = 0; i < 2; ++i, ++p_) {
            char h = cur();
            if (!std::isxdigit(static_cast<unsigned char>(h))) err("two hex digits after '\\x'");
            v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : std::tolower(h) - 'a' + 10);
          }
          out += char(v);
          break;
        }
        default: --p_; err("an escape (\\\" \\\\ \\n \\t \\r \\xHH)");
      }
    }
  }
  attribute number_lit() {
    ws();
    std::size_t b = p_;
    if (cur() == '-') ++p_;
    if (ident_start(cur())) {  // -inf, inf, nan
      std::string w = word();
      if (w == "inf") return s_[b] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
      if (w == "nan" && s_[b] != '-') return std::numeric_limits<double>::quiet_NaN();
      p_ = b;
      err("a number");
    }
    p_ = b;
    if (cur() == '-') ++p_;
    if (!std::isdigit(static_cast<unsigned char>(cur()))) {
      p_ = b;
      err("a number");
    }
    bool is_float = false;
    while (std::isdigit(static_cast<unsigned char>(cur()))) ++p_;
    if (cur() == '.') {
      is_float = true;
      ++p_;
      if (!std::isdigit(static_cast<unsigned char>(cur()))) err("digits after '.'");
      while (std::isdigit(static_cast<unsigned char>(cur()))) ++p_;
    }
    if (cur() == 'e' || cur() == 'E') {
      is_float = true;
      ++p_;
      if (cur() == '+' || cur() == '-') ++p_;
      if (!std::isdigit(static_cast<unsigned char>(cur()))) err("an exponent");
      while (std::isdigit(static_cast<unsigned char>(cur()))) ++p_;
    }
    if (!is_float) {
      p_ = b;
      return int_lit("an integer");
    }
    double d = 0;
    auto r = std::from_chars(s_.data() + b, s_.data() + p_, d);
    if (r.ptr != s_.data() + p_) err_here(b, "malformed float literal");
    if (r.ec == std::errc::result_out_of_range) d = std::strtod(s_.substr(b, p_ - b).c_str(), nullptr);  // inf or denormal
    return d;
  }
  attribute attr_value() {
    ws();
    if (cur() == '"') return string_lit();
    if (eat('[')) {
      std::vector<std::int64_t> v;
      if (eat(']')) return v;
      do v.push_back(int_lit("an integer list element"));
      while (eat(','));
      expect(']', "',' or ']'");
      return v;
    }
    if (cur() == '-' || std::isdigit(static_cast<unsigned char>(cur()))) return number_lit();
    std::size_t b = p_;
    std::string w = word();
    if (w == "inf" || w == "nan") {
      p_ = b;
      return number_lit();
    }
    if (auto d = dtype_from_name(w)) return *d;
    p_ = b;
    err("an attribute value (int, float, string, [ints] or dtype)");
  }

  // ---- types
  type parse_type() {
    std::size_t b = (ws(), p_);
    std::string k = word();
    if (k != "tile" && k != "array") {
      p_ = b;
      err("a type (tile<...> or array<...>)");
    }
    expect('<', "'<'");
    std::size_t db = (ws(), p_);
    auto d = dtype_from_name(word());
    if (!d) {
      p_ = db;
      err("a dtype name");
    }
    if (k == "array") {
      expect(',', "',' and the array rank");
      std::int64_t r = int_lit("the array rank");
      if (r < 0 || r > max_array_rank) err_here(p_, str("array rank ", r, " is outside 0..", max_array_rank));
      expect('>', "'>'");
      return type::array(*d, int(r));
    }
    std::vector<std::int64_t> shape;
    if (eat(',')) {
      do {
        std::int64_t e = int_lit("a tile extent");
        if (e <= 0) err_here(p_, str("tile extent ", e, " must be positive"));
        shape.push_back(e);
      } while (eat('x'));
    }
    expect('>', shape.empty() ? "',' or '>'" : "'x' or '>'");
    return type::tile(*d, std::move(shape));
  }

  // ---- values
  std::string value_token(std::string* stored) {  // after '%': the printed name and the name to store
    if (!eat('%')) err("a value (%name)");
    std::size_t b = p_;
    while (ident_char(cur()) || cur() == '.') ++p_;
    std::string t = s_.substr(b, p_ - b);
    if (t.empty()) err("a value name after '%'");
    bool digits = true;
    for (char c : t) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    std::string base = t;
    if (!digits) {
      std::size_t dot = t.find('.');
      if (dot != std::string::npos) {
        base = t.substr(0, dot);
        std::string suffix = t.substr(dot + 1);
        bool ok = !suffix.empty();
        for (char c : suffix) ok = ok && std::isdigit(static_cast<unsigned char>(c));
        if (!ok) err_here(b, str("malformed value name %", t));
      }
      if (!ident_start(base[0])) err_here(b, str("malformed value name %", t));
    }
    if (stored) *stored = digits ? std::string() : base;
    return t;
  }
  value_id def_value(std::string* stored_name = nullptr) {
    ws();
    std::size_t at = p_;
    std::string stored;
    std::string t = value_token(&stored);
    if (names_.count(t) || pending_.count(t)) err_here(at, str("value %", t, " is defined twice"));
    if (stored_name) *stored_name = stored;
    value_id v = f_.new_value(type::tile(dtype::f32), stored);
    pending_[t] = v;
    pending_token_[v] = t;
    return v;
  }
  void bind(value_id v) {  // makes a pending definition usable
    auto it = pending_token_.find(v);
    if (it == pending_token_.end()) return;
    names_[it->second] = v;
    pending_.erase(it->second);
    pending_token_.erase(it);
  }
  value_id use_value() {
    ws();
    std::size_t at = p_;
    std::string t = value_token(nullptr);
    auto it = names_.find(t);
    if (it == names_.end()) err_here(at, str("undefined value %", t));
    return it->second;
  }
  // At '%': is this "%a, %b =" (the results of the next op) rather than operands?
  bool looks_like_results() {
    std::size_t save = p_;
    bool yes = false;
    while (peek('%')) {
      ++p_;
      while (ident_char(cur()) || cur() == '.') ++p_;
      if (eat(',')) continue;
      yes = peek('=');
      break;
    }
    p_ = save;
    return yes;
  }
  bool looks_like_attrs() {  // at '{': "{key =" rather than a region
    std::size_t save = p_;
    expect('{', "'{'");
    ws();
    bool yes = false;
    if (cur() == '"') {
      try {
        string_lit();
        yes = peek('=');
      } catch (const tegula::error&) {
        yes = false;
      }
    } else if (!word().empty()) {
      yes = peek('=');
    }
    p_ = save;
    return yes;
  }

  // ---- ops and regions
  location opt_loc() {
    location l;
    if (!peek_word("loc")) return l;
    word();
    expect('(', "'(' after loc");
    l.file = string_lit();
    expect(':', "':' and a line number");
    std::int64_t line = int_lit("a line number");
    std::int64_t col = 0;
    if (eat(':')) col = int_lit("a column number");
    if (line < 0 || line > std::numeric_limits<int>::max() || col < 0 || col > std::numeric_limits<int>::max())
      err_here(p_, "location out of range");
    l.line = int(line), l.column = int(col);
    expect(')', "')'");
    return l;
  }

  void ops_until_close(region& r) {
    while (!eat('}')) {
      if (p_ >= s_.size()) err("an op or '}'");
      r.ops.push_back(parse_op());
    }
  }

  region parse_region() {
    if (++depth_ > max_depth) err_here(p_, str("regions nested deeper than ", max_depth));
    expect('{', "'{' to open a region");
    region r;
    std::vector<value_id> args;
    if (eat('^')) {
      expect('(', "'(' after '^'");
      if (!eat(')')) {
        do {
          value_id v = def_value();
          expect(':', "':' and the argument type");
          f_.values[std::size_t(v)].t = parse_type();
          bind(v);
          r.args.push_back(v);
        } while (eat(','));
        expect(')', "',' or ')'");
      }
      expect(':', "':' after the region arguments");
    }
    ops_until_close(r);
    --depth_;
    return r;
  }

  op parse_op() {
    op o{};
    ws();
    if (cur() == '%') {
      do o.results.push_back(def_value());
      while (eat(','));
      expect('=', "'=' after the results");
    }
    std::size_t at = (ws(), p_);
    std::string name = word();
    if (name.empty()) err("an op name");
    auto k = op_from_text(name);
    if (!k) err_here(at, str("expected an op name, found unknown op '", name, "'"));
    o.kind = *k;
    if (peek('%') && !looks_like_results()) {
      do o.operands.push_back(use_value());
      while (eat(','));
    }
    if (peek('{') && looks_like_attrs()) {
      expect('{', "'{'");
      do {
        ws();
        std::size_t kat = p_;
        std::string key = cur() == '"' ? string_lit() : word();
        if (key.empty()) err("an attribute name");
        expect('=', "'=' after the attribute name");
        if (o.attr(key)) err_here(kat, str("attribute '", key, "' is given twice"));
        o.set_attr(key, attr_value());
      } while (eat(','));
      expect('}', "',' or '}' in the attributes");
    }
    while (peek('{')) o.regions.push_back(parse_region());
    if (eat(':')) {
      std::size_t i = 0;
      do {
        type t = parse_type();
        if (i >= o.results.size()) err_here(p_, str("expected ", o.results.size(), " result type(s) for '", name, "'"));
        f_.values[std::size_t(o.results[i++])].t = std::move(t);
      } while (eat(','));
      if (i != o.results.size()) err(str(o.results.size(), " result types for '", name, "', got ", i, ": ',' and a type"));
    } else if (!o.results.empty()) {
      err(str("':' and the result type(s) of '", name, "'"));
    }
    o.loc = opt_loc();
    for (value_id v : o.results) bind(v);  // results are usable after the op, not inside it
    return o;
  }

  const std::string& s_;
  std::string file_;
  std::size_t p_ = 0;
  int depth_ = 0;
  function f_;
  std::map<std::string, value_id> names_;    // printed name -> value, once defined
  std::map<std::string, value_id> pending_;  // results named but not yet in scope
  std::map<value_id, std::string> pending_token_;
};

}  // namespace

function parse(const std::string& text, const std::string& filename) { return parser(text, filename).run(); }

}  // namespace tegula::ir
