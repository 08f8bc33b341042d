/// @file lane_expression.hpp
/// @brief Lane addresses written as an expression of the lane index `t`.
///
/// Grammar (C precedence and associativity, all operators binary and left-associative except
/// unary minus and unary plus):
///
///     or     := xor ( '|' xor )*
///     xor    := and ( '^' and )*
///     and    := shift ( '&' shift )*
///     shift  := sum ( ('<<' | '>>') sum )*
///     sum    := product ( ('+' | '-') product )*
///     product:= unary ( ('*' | '/' | '%') unary )*
///     unary  := ('-' | '+') unary | atom
///     atom   := number | 't' | '(' or ')'
///
/// Numbers are decimal or hexadecimal (`0x80`). Arithmetic is on signed 64-bit integers; `/` and
/// `%` truncate toward zero as in C. Example: `(t%8)*128 + ((t/8 ^ t%8) & 7)*16`.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace smem {

/// A malformed expression, or one that cannot be evaluated for some lane. what() names the
/// problem; position() is the 0-based character it concerns.
class ExpressionError : public std::runtime_error {
 public:
  /// An error about `text` at character `position`.
  ExpressionError(const std::string& message, std::string text, std::size_t position);
  std::size_t position() const { return position_; }  ///< Character the error points at.
  /// The expression with a caret under the offending character, two lines.
  std::string pointer() const;

 private:
  std::string text_;
  std::size_t position_;
};

/// A parsed expression of the lane index `t`.
class LaneExpression {
 public:
  /// Parses `text`; throws ExpressionError with the position of the first problem. Expressions
  /// longer than 4096 characters or nested more than 256 parentheses deep are refused.
  static LaneExpression parse(const std::string& text);

  /// The value for lane `t`. Throws ExpressionError (pointing at the operator) on division by
  /// zero, a shift by a negative amount or by 63 or more, or a result that overflows 64 bits.
  std::int64_t evaluate(std::int64_t t) const;

  const std::string& text() const { return text_; }  ///< The source text.

  /// One node of the parsed tree (public for the parser; not part of the interface).
  struct Node {
    /// 'n' number, 't' lane, 'u' negate, or the operator character ('+', '-', '*', '/', '%',
    /// '&', '|', '^', '<' for <<, '>' for >>).
    char op = 0;
    std::int64_t value = 0;    ///< The number, for 'n'.
    int left = -1;             ///< First operand (index into the node list), or -1.
    int right = -1;            ///< Second operand, or -1.
    std::size_t position = 0;  ///< Character where the node starts (operators: the operator).
  };

 private:
  std::int64_t evaluate_node(int node, std::int64_t t) const;
  std::string text_;
  std::vector<Node> nodes_;
  int root_ = -1;
};

}  // namespace smem
