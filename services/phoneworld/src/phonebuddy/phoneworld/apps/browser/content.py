"""The seeded web of 浏览器: about thirty pages on made-up sites (news, recipes, government
services with hotlines and addresses, restaurants with opening hours, two price-comparison
shops, a railway holiday notice, a university admission page), the home page's shortcut tiles
and hot searches, and the history, bookmarks and downloads a fresh phone has."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

DAYS = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
PRODUCTS = ("星耀X5手机", "青柠无线耳机", "极光平板Air", "云朵扫地机器人", "暖阳电暖器")
SHOPS = (("https://jd-mall.pw/compare", "京选商城"), ("https://pin-buy.pw/compare", "拼购网"))
MAJORS = ("计算机科学与技术", "软件工程", "电子信息工程", "机械设计制造", "临床医学", "法学",
          "汉语言文学", "会计学", "国际经济与贸易", "建筑学", "数学与应用数学", "英语")  # fmt: skip
GOV = (
    ("https://gov.pw/shebao", "市社会保险服务中心", "社保服务热线", "01065128866",
     "朝阳区建国路88号社保大厦一层", "办理社保卡申领、补换、养老保险缴费证明打印等业务。"),
    ("https://gov.pw/churujing", "市出入境接待大厅", "出入境咨询热线", "01084020101",
     "东城区北二环东路2号出入境大楼二层", "办理护照、港澳通行证、台湾通行证的申请和换发。"),
    ("https://gov.pw/gongjijin", "市住房公积金管理中心", "公积金热线", "01062236688",
     "海淀区中关村南大街12号公积金服务大厅", "办理公积金提取、贷款咨询和缴存证明打印。"),
)  # fmt: skip
RESTAURANTS = (
    ("https://eat.pw/laosichuan", "老四川火锅", "西城区西单北大街120号三层", "01066051234"),
    ("https://eat.pw/xiaonanguo", "小南国本帮菜", "朝阳区三里屯路19号", "01064178899"),
    ("https://eat.pw/yunnan", "彩云间云南菜", "海淀区五道口华清嘉园7号楼", "01082863355"),
    ("https://eat.pw/jiaozi", "喜家饺子馆", "东城区东直门内大街56号", "01084015577"),
)  # fmt: skip
NEWS = (
    ("https://news.pw/2026/0315/subway", "地铁17号线北段下月开通",
     ["地铁17号线北段将于下月底开通试运营，全线设站8座。",
      "开通后，从未来科学城到东直门仅需35分钟。",
      "运营初期行车间隔为6分钟，早晚高峰将加密至4分钟。"]),
    ("https://news.pw/2026/0314/spring", "春季赏花指南：这些公园花期将至",
     ["玉渊潭公园的樱花预计3月下旬进入盛花期。",
      "植物园的郁金香展将于4月初开幕，展出品种超过百种。",
      "景山公园的牡丹花期在4月中下旬，建议错峰游览。"]),
    ("https://news.pw/2026/0313/weather", "本周气温回升 周末最高可达20度",
     ["受暖气团影响，本周本市气温持续回升。", "周末白天最高气温可达20度，早晚温差较大。",
      "气象部门提醒，春季风大物燥，注意防火。"]),
    ("https://news.pw/2026/0312/library", "市图书馆新馆开放 周一闭馆",
     ["市图书馆新馆正式对外开放，藏书超过800万册。", "开放时间为周二至周日9:00-21:00，周一闭馆。",
      "读者可凭身份证或社保卡免费办理借阅证。"]),
    ("https://news.pw/2026/0311/marathon", "城市马拉松4月开跑 报名今日启动",
     ["2026城市马拉松将于4月19日鸣枪起跑，设全程、半程和健康跑三个项目。",
      "报名通道今日开启，名额共计3万个，报名人数超出后将抽签。",
      "赛事当天部分道路将实行临时交通管制。"]),
    ("https://news.pw/2026/0308/museum", "国家博物馆推出夜场 每周五延长开放",
     ["国家博物馆自本月起每周五推出夜场，开放时间延长至21:00。",
      "夜场需提前一天在官网预约，每场限额3000人。", "夜场期间部分展厅将推出专题讲解。"]),
    ("https://news.pw/2026/0307/bike", "共享单车新规实施 停车需入电子围栏",
     ["本市共享单车停放新规本周起实施，车辆须停放在电子围栏内。",
      "未按规定停车的用户将被加收调度费5元。", "全市已划设电子围栏停车点1.2万个。"]),
    ("https://news.pw/2026/0306/school", "今年小学入学登记5月启动",
     ["今年义务教育阶段入学登记将于5月上旬启动，家长可在线填报。",
      "适龄儿童需在2026年8月31日前年满6周岁。", "各区将于6月公布学校划片范围。"]),
    ("https://news.pw/2026/0305/airport", "机场新航站楼年底投用 新增国际航线20条",
     ["新航站楼建筑面积约50万平方米，预计年底投入使用。",
      "投用后将新增国际航线20条，年旅客吞吐能力提升至4000万人次。",
      "航站楼将与地铁、城际铁路无缝换乘。"]),
    ("https://news.pw/2026/0310/ev", "新能源汽车充电桩年内新增两万个",
     ["今年全市计划新增公共充电桩两万个，重点覆盖老旧小区。",
      "新建充电桩将全部接入统一的充电服务平台。",
      "市民可通过平台查询空闲桩位并预约充电。"]),
)  # fmt: skip
RECIPES = (
    ("https://chishenme.pw/hongshaorou", "红烧肉的家常做法",
     ["五花肉500克切块，冷水下锅焯水后捞出。", "锅中放少许油，小火炒糖色至枣红色。",
      "放入肉块翻炒上色，加生抽、老抽、料酒和热水，小火炖60分钟。", "大火收汁，撒葱花出锅。"]),
    ("https://chishenme.pw/tomato-egg", "番茄炒蛋怎么做才好吃",
     ["鸡蛋3个打散，加少许盐。", "番茄2个切块，先炒鸡蛋至凝固盛出。",
      "番茄炒出汁后加入鸡蛋，加少许糖调味即可。"]),
    ("https://chishenme.pw/jiaozi", "猪肉白菜饺子馅的调法",
     ["猪肉馅400克，加入葱姜水分次搅打上劲。", "白菜600克切碎，用盐杀出水分后挤干。",
      "加入生抽、蚝油、香油拌匀，包好后水开下锅煮3次开锅。"]),
    ("https://chishenme.pw/cola-wings", "可乐鸡翅零失败做法",
     ["鸡翅10个两面划刀，冷水下锅焯水。", "锅中少油，将鸡翅煎至两面金黄。",
      "倒入一罐可乐，加生抽两勺，小火煮15分钟后收汁。"]),
    ("https://chishenme.pw/congee", "皮蛋瘦肉粥",
     ["大米100克提前浸泡30分钟，加少许油拌匀。", "瘦肉切丝用盐腌制，皮蛋切小块。",
      "米下锅煮40分钟至浓稠，放入肉丝和皮蛋再煮5分钟。"]),
    ("https://chishenme.pw/mapo", "正宗麻婆豆腐",
     ["嫩豆腐一块切小块，用淡盐水焯一下。", "牛肉末炒香，加郫县豆瓣酱炒出红油。",
      "下豆腐小火煮5分钟，勾芡后撒花椒面。"]),
)  # fmt: skip
GUIDES = (
    ("https://trip.pw/hangzhou-2days", "杭州两日游攻略",
     [("第一天", ["上午游览西湖，推荐从断桥出发步行至苏堤。", "下午前往灵隐寺，门票45元。"]),
      ("第二天", ["上午去西溪湿地，可乘摇橹船游览。", "傍晚到河坊街品尝小吃。"]),
      ("交通", ["从北京南站乘高铁约4.5小时到达杭州东站。"])]),
    ("https://trip.pw/xian-food", "西安美食地图",
     [("必吃小吃", ["肉夹馍、羊肉泡馍、凉皮和biangbiang面是西安四大名吃。",
                   "回民街的小吃最为集中，晚上尤其热闹。"]),
      ("推荐路线", ["钟楼出发，经鼓楼进入回民街，全程步行约20分钟。"])]),
)  # fmt: skip
HOLIDAYS = (
    ("清明节", "2026-04-04", "2026-04-06", "2026-03-21"),
    ("劳动节", "2026-05-01", "2026-05-05", "2026-04-16"),
    ("端午节", "2026-06-19", "2026-06-21", "2026-04-28"),
)  # fmt: skip
FILES = (
    ("https://edu.pw/admission", "2026招生简章.pdf", "3.2MB"),
    ("https://gov.pw/shebao", "社保卡申领表.docx", "48KB"),
    ("https://news.pw/2026/0311/marathon", "马拉松报名须知.pdf", "1.1MB"),
    ("https://chishenme.pw/hongshaorou", "家常菜谱合集.pdf", "12.6MB"),
)  # fmt: skip
HOT = ("地铁17号线", "樱花", "马拉松", "红烧肉", "社保卡", "火车票", "招生", "火锅")


def day_label(iso: str) -> str:
    month, day = iso[5:7], iso[8:10]
    return f"{int(month)}月{int(day)}日"


def _page(url: str, title: str, site: str, sections: list[tuple[str, list[str]]],
          **extra: Any) -> dict[str, Any]:  # fmt: skip
    page_id = "p" + url.split("//", 1)[1].replace("/", "_").replace(".", "_").replace("-", "_")
    return {"id": page_id, "url": url, "title": title, "site": site,
            "sections": [{"heading": h, "paragraphs": list(ps)} for h, ps in sections],
            "links": [], "files": [], **extra}  # fmt: skip


def _hours(rng: random.Random) -> list[str]:
    closed = set(rng.sample(range(7), rng.choice((0, 1, 1, 2))))
    opens, closes = rng.choice(("10:30", "11:00", "11:30")), rng.choice(("21:00", "22:00", "23:00"))
    return ["休息" if i in closed else f"{opens}-{closes}" for i in range(7)]


def build(rng: random.Random) -> dict[str, Any]:
    pages: list[dict[str, Any]] = []
    for url, title, paragraphs in NEWS:
        pages.append(_page(url, title, "新闻网", [("正文", paragraphs)], kind="news"))
    for url, title, paragraphs in RECIPES:
        pages.append(_page(url, title, "吃什么菜谱", [("做法", paragraphs)], kind="recipe"))
    for url, name, label, hotline, address, intro in GOV:
        pages.append(_page(url, name, "政务服务网", [
            ("服务介绍", [intro, "工作日9:00-17:00对外办公，周六上午办理预约业务。"]),
            ("联系方式", [f"{label}：{hotline[:3]}-{hotline[3:]}", f"办公地址：{address}"]),
            ("温馨提示", ["办理业务请携带本人身份证原件。",
                      "可通过政务服务网提前预约，减少排队时间。"]),
        ], kind="gov", hotline=hotline, hotline_label=label, address=address))  # fmt: skip
    for url, name, address, phone in RESTAURANTS:
        hours = _hours(rng)
        pages.append(_page(url, name, "美食点评", [
            ("餐厅简介", [f"{name}人均{rng.randrange(60, 160)}元，招牌菜深受食客喜爱。"]),
            ("营业时间", [f"{d}：{h}" for d, h in zip(DAYS, hours, strict=True)]),
            ("地址电话", [f"地址：{address}", f"订座电话：{phone[:3]}-{phone[3:]}"]),
        ], kind="restaurant", hours=hours, address=address))  # fmt: skip
    prices = {p: rng.sample(range(99, 4999), 2) for p in PRODUCTS}
    for i, (url, shop) in enumerate(SHOPS):
        listed = {p: prices[p][i] for p in PRODUCTS}
        pages.append(_page(url, f"{shop}·热门商品比价", shop, [
            ("今日价格", [f"{p}：¥{listed[p]}" for p in PRODUCTS]),
            ("购物说明", ["以上价格含税，满99元包邮。", "价格每日更新，以下单页面为准。"]),
        ], kind="shop", prices=listed))  # fmt: skip
    for url, title, sections in GUIDES:
        pages.append(_page(url, title, "旅行攻略", sections, kind="guide"))
    notice = []
    for name, first, last, sale in HOLIDAYS:
        notice.append(f"{name}：{day_label(first)}至{day_label(last)}放假，"
                      f"火车票{day_label(sale)}开售。")  # fmt: skip
    pages.append(_page("https://rail.pw/notice/holiday", "2026年节假日火车票预售通知", "铁路服务",
                       [("放假及开售安排", notice),
                        ("购票提醒", ["互联网售票预售期为15天，每天8:00起售。",
                                     "请提前完成实名核验，谨防虚假抢票软件。"])],
                       kind="rail"))  # fmt: skip
    seats = {m: rng.randrange(40, 320) for m in MAJORS}
    pages.append(_page("https://edu.pw/admission", "明德大学2026年本科招生", "明德大学", [
        ("学校概况", ["明德大学是一所综合性大学，设有18个学院。", "学校现有全日制本科生2.6万人。"]),
        ("分专业招生计划", [f"{m}：{n}人" for m, n in seats.items()]),
        ("报考须知", ["招生咨询电话：010-62781234。", "录取结果将于7月下旬在本网站公布。"]),
    ], kind="edu", figures=seats, unit="人"))  # fmt: skip
    districts = ("东城区", "西城区", "朝阳区", "海淀区", "丰台区", "石景山区", "通州区", "顺义区",
                 "昌平区")  # fmt: skip
    medals = {d: rng.randrange(3, 30) for d in districts}
    pages.append(_page("https://news.pw/2026/0309/games", "市运会落幕 各区奖牌榜出炉", "新闻网", [
        ("赛事回顾", ["第十六届市运会昨日闭幕，共决出金牌300余枚。",
                      "本届运动会共有1.2万名运动员参赛。"]),
        ("各区金牌数", [f"{d}：金牌{n}枚" for d, n in medals.items()]),
        ("展望", ["下届市运会将于四年后举行。"]),
    ], kind="news", figures=medals, unit="枚"))  # fmt: skip
    by_url = {p["url"]: p for p in pages}
    for url, name, size in FILES:
        by_url[url]["files"].append({"id": f"f{len(by_url[url]['files'])}", "name": name,
                                     "size": size})  # fmt: skip
    links = {"https://news.pw/2026/0312/library": ["https://gov.pw/shebao"],
             "https://news.pw/2026/0311/marathon": ["https://rail.pw/notice/holiday"],
             "https://jd-mall.pw/compare": ["https://pin-buy.pw/compare"],
             "https://pin-buy.pw/compare": ["https://jd-mall.pw/compare"],
             "https://news.pw/2026/0315/subway": ["https://news.pw/2026/0314/spring",
                                                  "https://news.pw/2026/0313/weather"],
             "https://edu.pw/admission": ["https://news.pw/2026/0309/games"],
             "https://eat.pw/laosichuan": ["https://eat.pw/xiaonanguo", "https://eat.pw/yunnan"],
             "https://chishenme.pw/tomato-egg": ["https://chishenme.pw/hongshaorou"]}  # fmt: skip
    for url, targets in links.items():
        by_url[url]["links"] = list(targets)
    shortcuts = ["https://news.pw/2026/0315/subway", "https://chishenme.pw/hongshaorou",
                 "https://gov.pw/shebao", "https://rail.pw/notice/holiday",
                 "https://edu.pw/admission", "https://jd-mall.pw/compare"]  # fmt: skip
    history_urls = ["https://news.pw/2026/0313/weather", "https://chishenme.pw/mapo",
                    "https://eat.pw/jiaozi", "https://news.pw/2026/0310/ev",
                    "https://chishenme.pw/jiaozi", "https://gov.pw/gongjijin",
                    "https://news.pw/2026/0314/spring", "https://eat.pw/jiaozi",
                    "https://chishenme.pw/mapo"]  # fmt: skip
    history = [{"id": f"h{i}", "url": u, "title": by_url[u]["title"],
                "time": EPOCH_START - 3600 * (5 + 7 * i)}
               for i, u in enumerate(history_urls)]  # fmt: skip
    marked = ("https://news.pw/2026/0310/ev", "https://chishenme.pw/tomato-egg",
              "https://eat.pw/yunnan", "https://gov.pw/churujing")  # fmt: skip
    bookmarks = [{"id": f"b{i}", "url": u, "title": by_url[u]["title"]}
                 for i, u in enumerate(marked)]  # fmt: skip
    return {"pages": pages, "shortcuts": shortcuts, "hot": list(HOT), "history": history,
            "bookmarks": bookmarks,
            "downloads": [{"id": "d0", "name": "地铁线路图.png", "size": "860KB",
                           "url": "https://news.pw/2026/0315/subway",
                           "time": EPOCH_START - 86400 * 2}]}  # fmt: skip
