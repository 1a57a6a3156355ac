"""Answer checking for question-answer tasks: an answer states exactly one value of the kind
asked, in any natural form, and nothing that looks like a list or a copy of the screen. Values
written down (a note, a message) state exactly the value too, among any other words."""

from __future__ import annotations

import pytest

from phonebuddy.phoneworld.tasks.answers import (
    MAX_ANSWER_CHARS,
    ClockTime,
    ClockTimes,
    Date,
    Duration,
    Expectation,
    Money,
    Number,
    Text,
    TextSet,
    Together,
    YesNo,
    check_answer,
    check_written,
    dashed_code,
    digit_code,
    phone_number,
    train_number,
    wechat_id,
)
from phonebuddy.phoneworld.world import World


def passes(answer: str | None, expected: Expectation, *question: str) -> bool:
    return check_answer(answer, expected, question=question) == []


@pytest.mark.parametrize(
    "answer",
    ["5", "５", "5条", "共5条", "一共有5条备忘录", "五", "五条", "有五条", "There are 5 notes",
     "5 notes", "five", "答案是5。"],
)  # fmt: skip
def test_a_count_in_its_natural_forms_passes(answer: str) -> None:
    assert passes(answer, Number(5, unit="条"), "我有几条备忘录？", "How many notes do I have?")


def test_counts_with_other_measure_words_pass() -> None:
    for answer, count in [("还剩三十四集", 34), ("读了三本", 3), ("看过两部", 2), ("有五页", 5),
                          ("三篇笔记", 3), ("还有四站", 4), ("二十五枚", 25)]:  # fmt: skip
        assert passes(
            answer, Number(count), "还剩几集？读了几本？看过几部？有几页？几篇？还有几站？几枚？"
        )
        assert not passes(answer, Number(count), "有多少条？"), answer


def test_units_written_right_after_a_number() -> None:
    for answer in ("4.3kWh", "4.3 kWh", "4.3度", "用了4.3kwh"):
        assert passes(answer, Number(4.3), "用了多少度电？"), answer
        assert passes(answer, Number(4.3, unit="度")), answer


@pytest.mark.parametrize(
    "answer",
    ["4、5、6", "5 or 6", "0 1 2 3 4 5 6 7 8 9", "6", "5月3日有5条", "共5条（09:00）", "五六条"],
)
def test_a_count_among_other_numbers_or_a_wrong_count_fails(answer: str) -> None:
    assert not passes(answer, Number(5))


def test_numerals_inside_words_are_not_numbers(world: World) -> None:
    product = next(p["name"] for p in world.content("com.pw.shop")["products"] if "四" in p["name"])
    assert not passes(product, Number(4))  # a product name with 四 (e.g. 纯棉四件套) is not 4
    for answer in ("周五", "星期五", "下周五", "礼拜五"):  # Friday is not 5
        assert not passes(answer, Number(5)), answer
    for answer in ("李四", "毛巾三条装", "iPhone15", "G1234", "SM-S9180"):
        assert not passes(answer, Number(int("".join(c for c in answer if c.isdigit()) or 0)))
        assert not passes(answer, Number(4))
        assert not passes(answer, Number(3))


@pytest.mark.parametrize(
    ("answer", "expected"),
    [("-3°C", Number(-3)), ("零下3度", Number(-3)), ("零下三度", Number(-3)),
     ("二十五度", Number(25)), ("25℃", Number(25)), ("50%", Number(50)),
     ("亮度百分之五十", Number(50)),
     ("8 GB", Number(8)), ("55.4 GB", Number(55.4)), ("AQI 45", Number(45)),
     ("晚8小时", Number(8, signed=False)), ("-8", Number(8, signed=False)),
     ("两个半小时", Number(2.5)), ("2.5小时", Number(2.5)), ("2小时30分", Number(2.5))],
)  # fmt: skip
def test_quantities_with_units_and_signs(answer: str, expected: Number) -> None:
    # a unit is right where the question asks in it (any of its wordings, zh or en)
    question = ("最低气温多少度？亮度是多少（%）？", "How many GB are free? How many hours behind?")
    assert passes(answer, expected, *question)


@pytest.mark.parametrize(
    ("answer", "expected", "question"),
    [("5分钟", Number(5, unit="小时"), "两个时区相差几小时？"),
     ("5公里", Number(5), "有几条备忘录？"),
     ("5元", Number(5), "有几条备忘录？"), ("¥5", Number(5), "How many notes?"),
     ("配送¥5", Number(5), "有几条备忘录？"), ("东北风 5级", Number(5), "有几条备忘录？"),
     ("8. 火锅", Number(8), "收藏了几家店？"), ("Folder · 3 items", Number(3), "How many editors?"),
     ("5小时", Money(5), "要付多少钱？"), ("5公里", Duration(5), "要多少分钟？"),
     ("50%", Number(50), "How many notes?")],
)  # fmt: skip
def test_a_number_in_a_unit_the_question_does_not_ask_in_fails(
    answer: str, expected: Expectation, question: str
) -> None:
    assert not passes(answer, expected, question)


@pytest.mark.parametrize(
    "answer",
    ["答案不是5，是别的", "不是5", "not 5", "It is not 5.", "绝对不是5条", "5？不对", "5 is wrong",
     "不到5条", "不止5条", "5条以上", "more than 5", "at least 5", "5左右", "5 or more",
     "并非5", "isn't 5"],
)  # fmt: skip
def test_an_answer_that_denies_or_only_bounds_the_value_fails(answer: str) -> None:
    assert passes("5条", Number(5), "有几条备忘录？")
    assert not passes(answer, Number(5), "有几条备忘录？", "How many notes?")


def test_a_denied_name_fails_and_yes_no_answers_keep_their_negations() -> None:
    name = Text(["张伟"], others=["李娜"])
    assert passes("是张伟", name)
    assert not passes("不是张伟", name)
    assert not passes("not 张伟", name)
    assert passes("不会下雨", YesNo(False))
    assert not passes("不会下雨", YesNo(True))


def test_a_count_does_not_echo_the_question_s_date() -> None:
    """'3条 or 2条' for a question about March 2: the 2 is a second count, not the date echoed."""
    question = ("我3月2日那天一共录了几条录音？", "How many recordings did I make on March 2?")
    assert passes("3条", Number(3, unit="条"), *question)
    assert passes("3月2日录了3条", Number(3, unit="条"), *question)
    assert not passes("3条 or 2条", Number(3, unit="条"), *question)
    assert not passes("2条或3条", Number(3, unit="条"), *question)


def test_a_signed_quantity_keeps_its_sign() -> None:
    assert not passes("3°C", Number(-3))
    assert not passes("-8", Number(8))


@pytest.mark.parametrize(
    "answer",
    ["¥12.50", "￥12.5", "12.5元", "12.50 yuan", "RMB 12.50", "十二块五", "12块5", "12元5角",
     "It costs ¥12.50.", "一共12.5块"],
)  # fmt: skip
def test_money_in_its_natural_forms_passes(answer: str) -> None:
    assert passes(answer, Money(12.5))


def test_money_with_thousands_and_a_choice_of_amounts() -> None:
    assert passes("¥1,234.56", Money(1234.56))
    assert passes("¥15", Money(15, 20))
    assert passes("20元", Money(15, 20))
    assert not passes("¥15 或 ¥20", Money(15, 20))
    assert not passes("¥12.50、¥13.50", Money(12.5))
    assert not passes("12.4元", Money(12.5))


@pytest.mark.parametrize("answer", ["12块3毛5", "12元3角5分", "十二块三毛五", "十二块三毛五分"])
def test_money_in_yuan_jiao_and_fen_passes_with_or_without_fen(answer: str) -> None:
    assert passes(answer, Money(12.35))
    assert not passes(answer, Money(12.3))


@pytest.mark.parametrize(
    "answer",
    ["15:05", "15：05", "3:05 PM", "3:05pm", "下午3点05分", "下午三点零五分", "15点05分", "15时5分",
     "It is at 3:05 p.m."],
)  # fmt: skip
def test_a_time_in_its_natural_forms_passes(answer: str) -> None:
    assert passes(answer, ClockTime(15, 5))


def test_times_read_their_period_and_halves() -> None:
    assert passes("三点半", ClockTime(3, 30))
    assert passes("下午6点半", ClockTime(18, 30))
    assert passes("12 am", ClockTime(0, 0))
    assert passes("中午1点", ClockTime(13, 0))
    assert passes("7点一刻", ClockTime(7, 15))
    assert passes("6 o'clock", ClockTime(6, 0))
    assert not passes("3:05", ClockTime(15, 5))  # 03:05 is another time
    assert not passes("15:05-16:05", ClockTime(15, 5))
    assert not passes(" ".join(f"{h}点" for h in range(24)), ClockTime(15, 0))


def test_showtimes_must_be_exactly_the_listed_ones() -> None:
    shows = ClockTimes([(10, 0), (14, 30)])
    assert passes("10:00、14:30", shows)
    assert passes("14:30 and 10:00", shows)
    assert not passes("10:00", shows)
    assert not passes("10:00、14:30、19:00", shows)


def test_a_date_and_a_time_together() -> None:
    meeting = Together(Date(5, 3), ClockTime(14, 0))
    for answer in ("5月3日 14:00", "5月3号下午2点", "5/3 14:00", "May 3 at 2 pm", "3rd May, 14:00"):
        assert passes(answer, meeting), answer
    for answer in ("5月3日", "14:00", "5月3日或5月4日 14:00", "5月3日 14:00 15:00", "5月4日 14:00"):
        assert not passes(answer, meeting), answer


def test_a_train_and_its_departure() -> None:
    train = Together(train_number("G1234"), ClockTime(8, 5))
    assert passes("G1234，08:05 发车", train)
    assert passes("g1234 早上8点05分", train)
    assert not passes("G1234、G1235，08:05", train)
    assert passes("G1234", train_number("G1234"))
    assert not passes("G12345", train_number("G1234"))


@pytest.mark.parametrize(
    ("expected", "right", "wrong"),
    [(YesNo(True),
      ["会下雨", "会", "会，有小雨", "有雷阵雨", "没错，会下雨", "Yes", "It will rain."],
      ["不会", "不会下雨", "会下雨，不会", "可能会下雨", "不知道", "yes or no", "小雨"]),
     (YesNo(False), ["不会", "不会下雨", "不下雨", "没有雨", "No", "No, it won't rain.", "无雨"],
      ["无锡会下雨", "没错，会下雨", "会下雨，不会", "不确定", "maybe not", "晴"])],
)  # fmt: skip
def test_yes_or_no_takes_exactly_one_polarity(
    expected: YesNo, right: list[str], wrong: list[str]
) -> None:
    assert [a for a in right if not passes(a, expected)] == []
    assert [a for a in wrong if passes(a, expected)] == []


def test_codes_and_numbers_are_whole_tokens() -> None:
    assert passes("验证码是482913", digit_code("482913"))
    assert not passes("482913 593024", digit_code("482913"))
    assert not passes("4829134", digit_code("482913"))
    assert passes("尾号6217", digit_code("6217"))
    assert passes("**** 6217", digit_code("6217"))
    assert passes("8-4-8181", dashed_code("8-4-8181"))
    assert passes("8－4－8181", dashed_code("8-4-8181"))
    assert not passes("8-4-8181、1-5-6995", dashed_code("8-4-8181"))
    phone = phone_number("13812345678")
    assert passes("138 1234 5678", phone)
    assert passes("+86 138-1234-5678", phone)
    assert not passes("13812345678、13912345678", phone)
    assert passes("His WeChat ID is kevin_1192", wechat_id("kevin_1192"))
    assert not passes("kevin_1192 kevin_1193", wechat_id("kevin_1192"))
    assert not passes("kevin_11920", wechat_id("kevin_1192"))


def test_a_name_passes_in_its_forms_and_in_a_short_sentence() -> None:
    caller = Text(["张伟", "zhang wei", "wei zhang"], others=["李娜", "王芳", "张伟明"])
    for answer in (
        "张伟",
        "Zhang Wei",
        "WEI ZHANG",
        "是张伟。",
        "最近打给我的是张伟",
        "It was Zhang Wei.",
    ):
        assert passes(answer, caller), answer
    for answer in ("张伟、李娜", "李娜 王芳 张伟", "张伟明", "王芳", "zhang weiming", "张"):
        assert not passes(answer, caller), answer


def test_a_name_from_a_synonym_list_and_its_hedges() -> None:
    shipped = Text(["待收货", "已发货", "shipped"], others=["待发货", "not shipped", "已完成"])
    assert passes("已发货", shipped)
    assert passes("Shipped.", shipped)
    assert not passes("not shipped", shipped)
    assert not passes("已发货或已完成", shipped)


def test_a_list_of_names_must_be_exactly_the_right_ones() -> None:
    day = TextSet(["部门团建", "看牙医"], others=["周会", "健身"])
    assert passes("部门团建、看牙医", day)
    assert passes("有看牙医和部门团建", day)
    assert not passes("部门团建", day)
    assert not passes("部门团建、看牙医、周会", day)


def test_no_answer_a_long_answer_or_copied_text_fails() -> None:
    assert check_answer(None, Number(5)) == ["no answer given"]
    assert not passes("   ", Number(5))
    assert not passes("5" + " " * MAX_ANSWER_CHARS, Number(5))
    # the status bar's time and battery are numbers the answer was not asked for
    assert not passes("张伟 09:00 Wi-Fi 88%", Text(["张伟"]))
    # words: a short sentence is fine, a screen's worth is not
    assert passes("最近一次给我打电话的是张伟", Text(["张伟"]))
    assert not passes(
        "联系人详情 张伟 呼叫 信息 手机 公司 星河科技 群组 同事 设置 编辑", Text(["张伟"])
    )


@pytest.mark.parametrize(
    "answer",
    ["7小时55分", "7小时55分钟", "475分钟", "475", "七小时五十五分钟", "共7小时55分",
     "7 hours 55 minutes", "7 hours and 55 minutes", "7h55m", "It takes 7 h 55 min.", "7:55"],
)  # fmt: skip
def test_a_duration_in_hours_and_minutes_or_in_minutes_passes(answer: str) -> None:
    assert passes(answer, Duration(475))


@pytest.mark.parametrize(
    "answer",
    ["8小时", "7.9小时", "7小时55分或8小时", "475 485", "7小时55分，另外10分钟", "7", "55分"],
)
def test_a_wrong_duration_or_a_list_of_durations_fails(answer: str) -> None:
    assert not passes(answer, Duration(475))


def test_half_hours_and_a_bare_number_in_the_question_s_unit() -> None:
    for answer in ["1个半小时", "一个半小时", "1.5小时", "一小时半", "90分钟", "1 hour 30 minutes"]:
        assert passes(answer, Duration(90)), answer
    assert passes("半小时", Duration(30))
    assert passes("1.5", Duration(90, bare="hours"))
    assert not passes("1.5", Duration(90))
    # a number of the question is echoed, not a second duration
    assert passes("到5号门要25分钟", Duration(25), "步行到5号门要多久？")


@pytest.mark.parametrize(
    "answer",
    ["7分12秒", "7分钟12秒", "七分十二秒", "432秒", "432", "07:12", "7:12", "0:07:12", "7.2分钟",
     "一共7分12秒", "7 min 12 s", "7 minutes and 12 seconds", "7m12s"],
)  # fmt: skip
def test_a_duration_to_the_second_passes_in_its_natural_forms(answer: str) -> None:
    assert passes(answer, Duration(seconds=432))


@pytest.mark.parametrize(
    "answer",
    ["7分", "7分13秒", "7分钟", "12秒", "7分12秒或7分13秒", "432 433", "07:12，07:13", "7"],
)  # fmt: skip
def test_a_wrong_or_rounded_duration_or_a_list_of_them_fails_to_the_second(answer: str) -> None:
    assert not passes(answer, Duration(seconds=432))


def test_hours_count_in_a_duration_to_the_second_and_bare_numbers_take_the_unit_asked() -> None:
    assert passes("1小时2分3秒", Duration(seconds=3723))
    assert passes("1:02:03", Duration(seconds=3723))
    assert passes("7.2", Duration(seconds=432, bare="minutes"))
    assert not passes("7.2", Duration(seconds=432))
    with pytest.raises(ValueError, match="not both"):
        Duration(7, seconds=432)
    with pytest.raises(ValueError, match="bare"):
        Duration(seconds=432, bare="hours")


def test_a_numeral_inside_a_name_is_no_number_of_its_own() -> None:
    expected = Together(Text(["百年孤独"], others=["三体"], what="book"), Number(5, unit="%"))
    assert passes("《百年孤独》多5%", expected)
    assert passes("百年孤独，领先5个百分点", expected)
    assert not passes("百年孤独，领先5，100", expected)
    assert not passes("三体，领先5", expected)


def test_numbers_from_the_question_may_be_echoed() -> None:
    question = "车牌沪A·D12345现在要交多少停车费？"
    assert passes("沪A·D12345要交15元", Money(15), question)
    assert not passes("沪A·D12345要交15元", Money(15))
    assert not passes("沪A·D12345要交15元，12345", Money(15), "another question")
    # a number of the question is not a candidate: only the price counts
    asked = "购物App里的“小米14”，512GB的话多少钱？"
    assert passes("512GB版本¥5999", Money(5999), asked)
    assert not passes("512GB版本¥5999", Money(5999))
    assert not passes("512GB ¥5999 ¥6999", Money(5999), asked)


# -- values written down in a note or a message ------------------------------------------------


def written(text: str | None, expected: Expectation, *context: str) -> bool:
    return check_written(text, expected, what="the note", context=context) == []


WEATHER = ("晴", "多云", "阴", "小雨", "中雨", "阵雨", "雷阵雨", "小雪")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Meeting at 15:00 in room 3", ClockTime(15, 0)),
     ("明天下午3点去星河大厦 12 层开会，记得带电脑和 2 份合同", ClockTime(15, 0)),
     ("我钱包里还有¥3,456.78", Money(3456.78)), ("还剩三千四百五十六块七毛八", Money(3456.78)),
     ("周六 4月13日 多云，最低12°C，最高20°C", Number(12, 20, every=True)),
     ("4月13日 14:00 起 小雨 -3~5度", Number(-3, 5, every=True)),
     ("G1234次，08:05 发车，5月3日，2车厢", Together(train_number("G1234"), ClockTime(8, 5))),
     ("4月12日（周五）14:30，星河大厦 3 层 301 培训室",
      Together(Date(4, 12), ClockTime(14, 30), Text(["星河大厦 3 层 301 培训室"]))),
     ("帮我取个快递，取件码8-4-8181，在菜鸟驿站（文三路店），谢谢！", dashed_code("8-4-8181"))],
)  # fmt: skip
def test_a_written_value_may_have_any_words_around_it(text: str, expected: Expectation) -> None:
    assert written(text, expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("14:00、15:00、16:00", ClockTime(15, 0)), ("15:00 或 16:00 见", ClockTime(15, 0)),
     (" ".join(f"{h}点" for h in range(24)), ClockTime(15, 0)),
     (" ".join(map(str, range(301))), Money(35)), ("到手价¥7999，原价¥8999", Money(7999)),
     ("最低12°C，最高20°C，体感25°C", Number(12, 20, every=True)),
     ("最高20°C", Number(12, 20, every=True)),
     ("4月12日、4月13日 14:30", Together(Date(4, 12), ClockTime(14, 30))),
     ("8-4-8181 1-5-6995", dashed_code("8-4-8181")),
     ("13812345678、13987654321", phone_number("13812345678")),
     ("晴 多云 阴 小雨", Text(["小雨"], others=WEATHER)), ("", ClockTime(15, 0)),
     ("   ", Money(5))],
)  # fmt: skip
def test_a_written_value_among_other_candidates_fails(text: str, expected: Expectation) -> None:
    assert not written(text, expected)


def test_in_written_text_dates_and_clock_times_are_no_quantities() -> None:
    low_high = Number(12, 20, every=True)
    assert written("4月13日 14:30 多云 12-20°C", low_high)
    assert written("April 13, 3 pm: 12 to 20 degrees", low_high)
    # '4/13' may as well be a range: it stays numbers
    assert not written("4/13 多云 12-20°C", low_high)
    # answers keep reading every number ('5月3日有5条' states 5, 3 and 5)
    assert not passes("5月3日有5条", Number(5))


def test_numbers_of_the_instruction_are_no_candidates_in_written_text() -> None:
    asked = "我看中了“Apple iPhone 15 Pro 256GB”，把名称和价格发给张伟"
    sent = "Apple iPhone 15 Pro 256GB 到手价¥7999.00，你觉得怎么样？"
    assert written(sent, Money(7999), asked)
    assert not written(sent, Money(7999))
    assert not written(f"{sent} ¥8999", Money(7999), asked)


def test_values_written_besides_the_one_asked_may_be_allowed() -> None:
    start = ClockTime(7, 0, also=[(7, 30)])  # an event's end beside its start
    assert written("07:00-07:30 · 晨会 A座 3号会议室", start)
    assert not written("07:30 晨会", start)
    assert not written("07:00-08:00 晨会", start)
    weather = Text(["多云转小雨", "多云"], others=WEATHER, also=["小雨"], what="weather")
    assert written("多云转小雨", weather)
    assert written("白天多云，夜里小雨", weather)
    assert not written("小雨", weather)
    assert not written("多云 阴 小雨", weather)
