// Word lists and constants of the TPC-H specification (clause 4.2.2 and 4.2.3): the fixed
// nations and regions, the syllables of p_type and p_container, p_name's colour words, market
// segments, order priorities, ship instructions and modes, and the text grammar's vocabulary.
// Facts of the specification only; the generator (dbgen.cc) draws from them.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace shoal::tpch {

struct NationRow {
  std::string_view name;
  int32_t region;
};

// n_nationkey is the index.
inline constexpr std::array<NationRow, 25> kNations = {{
    {"ALGERIA", 0},      {"ARGENTINA", 1}, {"BRAZIL", 1},  {"CANADA", 1},       {"EGYPT", 4},
    {"ETHIOPIA", 0},     {"FRANCE", 3},    {"GERMANY", 3}, {"INDIA", 2},        {"INDONESIA", 2},
    {"IRAN", 4},         {"IRAQ", 4},      {"JAPAN", 2},   {"JORDAN", 4},       {"KENYA", 0},
    {"MOROCCO", 0},      {"MOZAMBIQUE", 0}, {"PERU", 1},   {"CHINA", 2},        {"ROMANIA", 3},
    {"SAUDI ARABIA", 4}, {"VIETNAM", 2},   {"RUSSIA", 3},  {"UNITED KINGDOM", 3}, {"UNITED STATES", 1},
}};

// r_regionkey is the index.
inline constexpr std::array<std::string_view, 5> kRegions = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};

inline constexpr std::array<std::string_view, 6> kTypeSyllable1 = {"STANDARD", "SMALL", "MEDIUM",
                                                                  "LARGE",    "ECONOMY", "PROMO"};
inline constexpr std::array<std::string_view, 5> kTypeSyllable2 = {"ANODIZED", "BURNISHED", "PLATED", "POLISHED",
                                                                  "BRUSHED"};
inline constexpr std::array<std::string_view, 5> kTypeSyllable3 = {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"};

inline constexpr std::array<std::string_view, 5> kContainerSyllable1 = {"SM", "LG", "MED", "JUMBO", "WRAP"};
inline constexpr std::array<std::string_view, 8> kContainerSyllable2 = {"CASE", "BOX", "BAG", "JAR",
                                                                       "PKG",  "PACK", "CAN", "DRUM"};

inline constexpr std::array<std::string_view, 5> kSegments = {"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY",
                                                             "HOUSEHOLD"};
inline constexpr std::array<std::string_view, 5> kPriorities = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED",
                                                               "5-LOW"};
inline constexpr std::array<std::string_view, 4> kInstructions = {"DELIVER IN PERSON", "COLLECT COD", "NONE",
                                                                 "TAKE BACK RETURN"};
inline constexpr std::array<std::string_view, 7> kShipModes = {"REG AIR", "AIR", "RAIL", "SHIP",
                                                              "TRUCK",   "MAIL", "FOB"};

// p_name is five distinct words of this list.
inline constexpr std::array<std::string_view, 92> kColors = {
    "almond",   "antique",   "aquamarine", "azure",     "beige",     "bisque",    "black",     "blanched",
    "blue",     "blush",     "brown",      "burlywood", "burnished", "chartreuse", "chiffon",  "chocolate",
    "coral",    "cornflower", "cornsilk",  "cream",     "cyan",      "dark",      "deep",      "dim",
    "dodger",   "drab",      "firebrick",  "floral",    "forest",    "frosted",   "gainsboro", "ghost",
    "goldenrod", "green",    "grey",       "honeydew",  "hot",       "indian",    "ivory",     "khaki",
    "lace",     "lavender",  "lawn",       "lemon",     "light",     "lime",      "linen",     "magenta",
    "maroon",   "medium",    "metallic",   "midnight",  "mint",      "misty",     "moccasin",  "navajo",
    "navy",     "olive",     "orange",     "orchid",    "pale",      "papaya",    "peach",     "peru",
    "pink",     "plum",      "powder",     "puff",      "purple",    "red",       "rose",      "rosy",
    "royal",    "saddle",    "salmon",     "sandy",     "seashell",  "sienna",    "sky",       "slate",
    "smoke",    "snow",      "spring",     "steel",     "tan",       "thistle",   "tomato",    "turquoise",
    "violet",   "wheat",     "white",      "yellow",
};

// The text grammar's vocabulary (clause 4.2.2.10).
inline constexpr std::array<std::string_view, 45> kNouns = {
    "packages",   "requests",  "accounts",    "deposits",   "foxes",     "ideas",     "theodolites",
    "pinto beans", "instructions", "dependencies", "excuses", "platelets", "asymptotes", "courts",
    "dolphins",   "multipliers", "sauternes", "warthogs",   "frets",     "dinos",     "attainments",
    "somas",      "Tiresias",  "patterns",    "forges",     "braids",    "hockey players", "frays",
    "warhorses",  "dugouts",   "notornis",    "epitaphs",   "pearls",    "tithes",    "waters",
    "orbits",     "gifts",     "sheaves",     "depths",     "sentiments", "decoys",   "realms",
    "pains",      "grouches",  "escapades",
};
inline constexpr std::array<std::string_view, 40> kVerbs = {
    "sleep",  "wake",  "are",     "cajole", "haggle", "nag",    "use",     "boost",  "affix",  "detect",
    "integrate", "maintain", "nod", "was",  "lose",   "sublate", "solve",  "thrash", "promise", "engage",
    "hinder", "print", "x-ray",   "breach", "eat",    "grow",   "impress", "mold",   "poach",  "serve",
    "run",    "dazzle", "snooze", "doze",   "unwind", "kindle", "play",    "hang",   "believe", "doubt",
};
inline constexpr std::array<std::string_view, 29> kAdjectives = {
    "special", "pending", "unusual", "express", "furious", "sly",      "careful", "blithe", "quick",  "fluffy",
    "slow",    "quiet",   "ruthless", "thin",   "close",   "dogged",   "daring",  "brave",  "stealthy", "permanent",
    "enticing", "idle",   "busy",    "regular", "final",   "ironic",   "even",    "bold",   "silent",
};
inline constexpr std::array<std::string_view, 28> kAdverbs = {
    "sometimes", "always",   "never",   "furiously",  "slyly",     "carefully",   "blithely",
    "quickly",   "fluffily", "slowly",  "quietly",    "ruthlessly", "thinly",     "closely",
    "doggedly",  "daringly", "bravely", "stealthily", "permanently", "enticingly", "idly",
    "busily",    "regularly", "finally", "ironically", "evenly",    "boldly",      "silently",
};
inline constexpr std::array<std::string_view, 47> kPrepositions = {
    "about",   "above",     "according to", "across",  "after",   "against", "along",      "alongside of",
    "among",   "around",    "at",           "atop",    "before",  "behind",  "beneath",    "beside",
    "besides", "between",   "beyond",       "by",      "despite", "during",  "except",     "for",
    "from",    "in place of", "inside",     "instead of", "into", "near",    "of",         "on",
    "outside", "over",      "past",         "since",   "through", "throughout", "to",      "toward",
    "under",   "until",     "up",           "upon",    "without", "with",    "within",
};
inline constexpr std::array<std::string_view, 18> kAuxiliaries = {
    "do",    "may",  "might", "shall", "will",  "would", "can", "could", "should", "ought to", "must",
    "will have to", "shall have to", "could have to", "should have to", "must have to", "need to", "try to",
};
inline constexpr std::array<std::string_view, 6> kTerminators = {".", ";", ":", "?", "!", "--"};

// Dates of clause 4.2.2.12, as days since 1970-01-01.
inline constexpr int32_t kStartDate = 8035;    // 1992-01-01
inline constexpr int32_t kEndDate = 10591;     // 1998-12-31
inline constexpr int32_t kCurrentDate = 9298;  // 1995-06-17

}  // namespace shoal::tpch
