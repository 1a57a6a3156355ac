"""The rubric judge: rewards for `real` episodes, which have no ground truth.

For an episode it gets the rubric of the instruction (written once by a "rubric writer" model and
cached in the object store by instruction hash), has a "grader" model judge every rubric item
against the action log and the final screenshots, and passes the episode only if every item
passes. Any failure to get a usable rubric or grading is a `judge_error` verdict, never a success.
Served over NATS request/reply (`phonebuddy judge serve`); `phonebuddy judge calibrate` measures
its agreement with PhoneWorld's verifiers.
"""

from phonebuddy.judge.errors import JudgeConfigError, JudgeError
from phonebuddy.judge.grading import Grader, ItemResult
from phonebuddy.judge.judge import Judge
from phonebuddy.judge.rubric import Rubric, RubricItem, RubricWriter
from phonebuddy.judge.settings import JudgeSettings, load_settings

__all__ = [
    "Grader",
    "ItemResult",
    "Judge",
    "JudgeConfigError",
    "JudgeError",
    "JudgeSettings",
    "Rubric",
    "RubricItem",
    "RubricWriter",
    "load_settings",
]
