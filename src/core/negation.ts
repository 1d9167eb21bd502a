// A negation that a verb of omission turns back into an order: "don't forget to send …", "never fail to
// upload …", "do not hesitate to run …", "not only format the notes but send them". Written right after a
// negation word, this lookahead keeps such a sentence from reading as one that says not to do it; without it,
// wrapping any instruction in "don't forget to" would discount it as refused.
export const UNLESS_DOUBLE_NEGATIVE = String.raw`(?![\s,]+(?:\w+\s+)?(?:forget|forgets|fail|fails|hesitate|neglect|omit|skip|miss|stop|cease|bother|delay|only|just)\b)`;
