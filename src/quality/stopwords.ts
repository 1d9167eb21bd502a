// Words that carry no topic. English function words, plus the vocabulary every skill description shares
// ("use this skill when the user asks …"), which would otherwise make every description match every body.

export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren as at be because been before being below
  between both but by can cannot could first did didn do does doesn doing don down during each either else etc even
  ever every few for from further get gets got had has hasn have haven having he her here hers herself him
  himself his how however i if in into is isn it its itself just let like ll may me might more most much must
  my myself no nor not now of off often on once one only or other others our ours ourselves out over own per
  re same shall she should so some such than that the their theirs them themselves then there these they this
  those through thus to too under until up upon us very via was wasn we were weren what whatever when whenever
  where whether which while who whom whose why will with within without won would yet you your yours yourself
  yourselves ve s t d m eg ie`
    .split(/\s+/)
    .filter(Boolean),
);

export const GENERIC_SKILL_WORDS: ReadonlySet<string> = new Set(
  `skill skills use used uses using user users ask asks asked asking want wants wanted need needs needed help
  helps helping claude agent agents assistant ai llm model task tasks request requests requested trigger
  triggers triggered invoke invoked provide provides provided support supports supported include includes
  including various specific based new make makes via able allow allows enable enables work works working
  example examples something anything things thing way ways step steps usage overview note notes`
    .split(/\s+/)
    .filter(Boolean),
);

// File extensions and the generic words of running code: every skill with a script has them, so they say
// nothing about what the skill does.
export const CODE_WORDS: ReadonlySet<string> = new Set(
  `py sh bash zsh js mjs cjs ts tsx md json yaml yml toml txt python python3 node npm npx pip run runs
  script scripts cli command commands`
    .split(/\s+/)
    .filter(Boolean),
);
