// Regular-expression functions with Spark's semantics (Java regex syntax, run on RE2 through
// expr/regex.h): rlike (regexp, regexp_like), regexp_extract, regexp_extract_all,
// regexp_replace, regexp_count, regexp_instr, regexp_substr and split. A literal pattern is
// compiled when the call is bound (an invalid one fails there); a pattern column is compiled
// once per distinct value through the shared cache. Positions count UTF-8 characters from 1.
#include <string>
#include <vector>

#include "expr/regex.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::Vector;
using columnar::VectorPtr;

namespace {

TypePtr Str() { return columnar::String(); }
TypePtr I32() { return columnar::Int32(); }

// The compiled pattern of argument `arg` for row i, recompiled only when the text changes.
class PatternArg {
 public:
  PatternArg(const KernelCall& call, size_t arg) : call_(call), arg_(arg) {}

  Result<const Regex*> At(int64_t i) {
    std::string_view p = StrArg(call_, arg_, i);
    if (!re_ || (!call_.arg(arg_).constant && re_->pattern() != p)) {
      ASSIGN_OR_RETURN(re_, Regex::Get(p, call_.name));
    }
    return re_.get();
  }

 private:
  const KernelCall& call_;
  size_t arg_;
  std::shared_ptr<const Regex> re_;
};

// Bind-time check: compiles the pattern argument when it is a literal.
Status CheckPattern(const std::vector<ExprPtr>& args, std::string_view name) {
  if (args.size() > 1 && args[1]->IsLiteral() && !args[1]->value.is_null()) {
    return Regex::Get(args[1]->value.GetString(), name).status();
  }
  return Status::OK();
}

// Spark's group index check (made only once a match is found, as Spark does).
Status CheckGroup(const KernelCall& call, const Regex& re, int64_t idx) {
  if (idx >= 0 && idx <= re.groups()) return Status::OK();
  return Status::InvalidArgument("[INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX] The value of parameter(s) `idx` in `" +
                                 std::string(call.name) + "` is invalid: Expects group index between 0 and " +
                                 std::to_string(re.groups()) + ", but got " + std::to_string(idx) + ".");
}

int64_t GroupArg(const KernelCall& call, int64_t i, int64_t fallback) {
  return call.num_args > 2 ? FixedArg<int32_t>(call, 2, i) : fallback;
}

Status RlikeKernel(const KernelCall& call, VectorPtr* out) {
  PatternArg pattern(call, 1);
  return FixedRows<uint8_t>(call, [&](int64_t i, uint8_t* r) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(const Regex* re, pattern.At(i));
    *r = re->PartialMatch(StrArg(call, 0, i)) ? 1 : 0;
    return RowStatus::kOk;
  }, out);
}

// regexp_extract(str, regexp[, idx = 1]): group idx of the first match; '' when there is none
// or the group did not take part.
Status RegexpExtractKernel(const KernelCall& call, VectorPtr* out) {
  PatternArg pattern(call, 1);
  Regex::Groups g;
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(const Regex* re, pattern.At(i));
    if (!re->Find(StrArg(call, 0, i), 0, &g)) return RowStatus::kOk;
    int64_t idx = GroupArg(call, i, 1);
    RETURN_NOT_OK(CheckGroup(call, *re, idx));
    s->assign(g[static_cast<size_t>(idx)]);
    return RowStatus::kOk;
  }, out);
}

// regexp_extract_all(str, regexp[, idx = 1]): group idx of every match.
Status RegexpExtractAllKernel(const KernelCall& call, VectorPtr* out) {
  PatternArg pattern(call, 1);
  return ListRows(call, [&](int64_t i, Vector* elems) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(const Regex* re, pattern.At(i));
    const int64_t idx = GroupArg(call, i, 1);
    Status st;
    re->ForEachMatch(StrArg(call, 0, i), [&](const Regex::Groups& g) {
      st = CheckGroup(call, *re, idx);
      if (!st.ok()) return false;
      elems->AppendString(g[static_cast<size_t>(idx)]);
      return true;
    });
    RETURN_NOT_OK(st);
    return RowStatus::kOk;
  }, out);
}

// regexp_replace(str, regexp, rep[, position = 1]): every match at or after character
// `position` replaced (the search sees the text from there on, as Java's Matcher.region with
// anchoring bounds); a position past the end leaves str as it is.
Status RegexpReplaceKernel(const KernelCall& call, VectorPtr* out) {
  PatternArg pattern(call, 1);
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(const Regex* re, pattern.At(i));
    std::string_view text = StrArg(call, 0, i), rep = StrArg(call, 2, i);
    const int64_t position = call.num_args > 3 ? FixedArg<int32_t>(call, 3, i) : 1;
    if (position < 1) {
      return Status::InvalidArgument("[INVALID_PARAMETER_VALUE] The value of parameter(s) `position` in "
                                     "`regexp_replace` is invalid: expects a positive value, but got " +
                                     std::to_string(position) + ".");
    }
    if (position > 1 && position - 1 >= Utf8Length(text)) {
      s->assign(text);
      return RowStatus::kOk;
    }
    const size_t start = Utf8Offset(text, position - 1);
    s->assign(text.substr(0, start));
    std::string_view region = text.substr(start);
    size_t copied = 0;  // bytes of region already in *s
    Status st;
    re->ForEachMatch(region, [&](const Regex::Groups& g) {
      size_t at = static_cast<size_t>(g[0].data() - region.data());
      s->append(region.substr(copied, at - copied));
      st = re->AppendReplacement(rep, g, s);
      copied = at + g[0].size();
      return st.ok();
    });
    if (!st.ok()) return st.WithContext("regexp_replace");
    s->append(region.substr(copied));
    return RowStatus::kOk;
  }, out);
}

Status RegexpCountKernel(const KernelCall& call, VectorPtr* out) {
  PatternArg pattern(call, 1);
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(const Regex* re, pattern.At(i));
    int32_t count = 0;
    re->ForEachMatch(StrArg(call, 0, i), [&](const Regex::Groups&) {
      ++count;
      return true;
    });
    *r = count;
    return RowStatus::kOk;
  }, out);
}

// regexp_instr(str, regexp[, idx = 0]): 1-based character position where group idx of the
// first match starts; 0 when nothing matches (or the group did not take part).
Status RegexpInstrKernel(const KernelCall& call, VectorPtr* out) {
  PatternArg pattern(call, 1);
  Regex::Groups g;
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(const Regex* re, pattern.At(i));
    std::string_view text = StrArg(call, 0, i);
    *r = 0;
    if (!re->Find(text, 0, &g)) return RowStatus::kOk;
    int64_t idx = GroupArg(call, i, 0);
    RETURN_NOT_OK(CheckGroup(call, *re, idx));
    std::string_view group = g[static_cast<size_t>(idx)];
    if (group.data()) *r = static_cast<int32_t>(Utf8Length(text.substr(0, group.data() - text.data())) + 1);
    return RowStatus::kOk;
  }, out);
}

// regexp_substr(str, regexp): the first match; NULL when there is none or it is empty (Spark
// defines it as nullif(regexp_extract(str, regexp, 0), '')).
Status RegexpSubstrKernel(const KernelCall& call, VectorPtr* out) {
  PatternArg pattern(call, 1);
  Regex::Groups g;
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(const Regex* re, pattern.At(i));
    if (!re->Find(StrArg(call, 0, i), 0, &g) || g[0].empty()) return RowStatus::kNull;
    s->assign(g[0]);
    return RowStatus::kOk;
  }, out);
}

// split(str, regex[, limit = -1]) as Java's String.split with Spark's rules: limit > 0 gives at
// most limit parts, the last holding the rest; limit <= 0 splits everywhere and keeps trailing
// empty parts; an empty match at the start makes no leading empty part; an empty regex splits
// into characters.
Status SplitKernel(const KernelCall& call, VectorPtr* out) {
  PatternArg pattern(call, 1);
  return ListRows(call, [&](int64_t i, Vector* elems) -> Result<RowStatus> {
    std::string_view text = StrArg(call, 0, i), regex = StrArg(call, 1, i);
    const int64_t limit = GroupArg(call, i, -1);
    if (!text.empty() && regex.empty()) {
      const int64_t chars = Utf8Length(text);
      const int64_t parts = limit > 0 && limit < chars ? limit : chars;
      size_t b = 0;
      for (int64_t k = 0; k + 1 < parts; ++k) {
        size_t e = Regex::NextCharacter(text, b);
        elems->AppendString(text.substr(b, e - b));
        b = e;
      }
      elems->AppendString(text.substr(b));
      return RowStatus::kOk;
    }
    ASSIGN_OR_RETURN(const Regex* re, pattern.At(i));
    int64_t parts = 0;
    size_t index = 0;
    bool any = false;
    re->ForEachMatch(text, [&](const Regex::Groups& g) {
      if (limit > 0 && parts >= limit - 1) return false;
      size_t at = static_cast<size_t>(g[0].data() - text.data());
      if (at == 0 && g[0].empty()) return true;  // no leading empty part for an empty match at 0
      elems->AppendString(text.substr(index, at - index));
      ++parts;
      any = true;
      index = at + g[0].size();
      return true;
    });
    elems->AppendString(any ? text.substr(index) : text);
    return RowStatus::kOk;
  }, out);
}

// A resolver's outcome; a match also gets the bind-time pattern check.
bool Checked(bool matched, Overload* o) {
  if (matched) o->check = CheckPattern;
  return matched;
}

}  // namespace

void RegisterRegexpFunctions(FunctionRegistry* r) {
  using Args = std::vector<TypePtr>;
  r->Add({"rlike", "rlike(STRING, STRING regexp)", [](const Args& a, Overload* o) {
            return Checked(Fixed(a, {Str(), Str()}, columnar::Boolean(), RlikeKernel, o), o);
          }},
         {"regexp", "regexp_like"});
  r->Add({"regexp_extract", "regexp_extract(STRING, STRING regexp[, INT idx])", [](const Args& a, Overload* o) {
            return Checked(Fixed(a, {Str(), Str()}, Str(), RegexpExtractKernel, o) ||
                               Fixed(a, {Str(), Str(), I32()}, Str(), RegexpExtractKernel, o),
                           o);
          }});
  r->Add({"regexp_extract_all", "regexp_extract_all(STRING, STRING regexp[, INT idx])",
          [](const Args& a, Overload* o) {
            auto list = columnar::List(Str());
            return Checked(Fixed(a, {Str(), Str()}, list, RegexpExtractAllKernel, o) ||
                               Fixed(a, {Str(), Str(), I32()}, list, RegexpExtractAllKernel, o),
                           o);
          }});
  r->Add({"regexp_replace", "regexp_replace(STRING, STRING regexp, STRING rep[, INT position])",
          [](const Args& a, Overload* o) {
            return Checked(Fixed(a, {Str(), Str(), Str()}, Str(), RegexpReplaceKernel, o) ||
                               Fixed(a, {Str(), Str(), Str(), I32()}, Str(), RegexpReplaceKernel, o),
                           o);
          }});
  r->Add({"regexp_count", "regexp_count(STRING, STRING regexp)", [](const Args& a, Overload* o) {
            return Checked(Fixed(a, {Str(), Str()}, I32(), RegexpCountKernel, o), o);
          }});
  r->Add({"regexp_instr", "regexp_instr(STRING, STRING regexp[, INT idx])", [](const Args& a, Overload* o) {
            return Checked(Fixed(a, {Str(), Str()}, I32(), RegexpInstrKernel, o) ||
                               Fixed(a, {Str(), Str(), I32()}, I32(), RegexpInstrKernel, o),
                           o);
          }});
  r->Add({"regexp_substr", "regexp_substr(STRING, STRING regexp)", [](const Args& a, Overload* o) {
            return Checked(Fixed(a, {Str(), Str()}, Str(), RegexpSubstrKernel, o), o);
          }});
  r->Add({"split", "split(STRING, STRING regex[, INT limit])", [](const Args& a, Overload* o) {
            auto list = columnar::List(Str());
            return Checked(Fixed(a, {Str(), Str()}, list, SplitKernel, o) ||
                               Fixed(a, {Str(), Str(), I32()}, list, SplitKernel, o),
                           o);
          }});
}

}  // namespace shoal::expr
