// The built-in corpora of the full-text benchmarks: generated from fixed
// vocabularies with fixed seeds, so that every run indexes the same text.

/// A linear congruential generator: the same numbers on every machine.
struct CorpusGenerator {
    var state: UInt64

    init(seed: UInt64 = 0x2545F4914F6CDD1D) {
        state = seed
    }

    mutating func next() -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int(truncatingIfNeeded: state >> 33)
    }

    mutating func next(below bound: Int) -> Int {
        next() % bound
    }
}

/// Mostly English words, with some latin letters beyond ASCII.
let englishVocabulary = """
    river mountain database engine search index token query table column record value \
    the a of and to in is it that was for on are as with his they at be this have from \
    first second third 1st 2nd 3rd café naïve Großmann Jérôme encyclopædia fidélité Øresund \
    whale captain sea ship harbor storm wind sail crew island map treasure gold silver \
    swift sqlite pool snapshot writer reader cursor statement argument transaction commit \
    garden flower tree leaf branch root seed rain sun cloud winter summer autumn spring
    """.split(separator: " ").map(String.init)

/// Chinese words of everyday and technical text, which ICU's dictionary
/// knows.
let chineseVocabulary = """
    研究 生命 科学 数据 搜索 引擎 索引 查询 系统 用户 服务器 网络 技术 开发 程序 软件 硬件 \
    计算 设计 性能 测试 安全 文件 目录 记录 表格 事务 提交 城市 北京 上海 天气 今天 明天 \
    我们 他们 学习 工作 生活 时间 问题 方法 结果 发展 经济 社会 文化 历史 国家 政府 公司 \
    市场 产品 价格 质量 环境 自然 森林 河流 海洋 花园 音乐 电影 朋友 家庭 孩子 学校 老师 \
    学生 医院 医生 健康 运动 比赛 旅行 飞机 火车 汽车 道路 重要 简单 复杂 快速 美丽 非常 \
    已经 可以 需要 因为 所以 但是 如果 手机 电话 银行 图书馆 大学 语言 文字 中文 汉字
    """.split(separator: " ").map(String.init)

/// `count` documents of 40 English words.
func englishCorpus(count: Int) -> [String] {
    var generator = CorpusGenerator()
    return (0..<count).map { _ in
        (0..<40).map { _ in englishVocabulary[generator.next(below: englishVocabulary.count)] }
            .joined(separator: " ")
    }
}

/// `count` documents of 40 Chinese words, written without spaces, with a
/// comma after every eighth word and a full stop at the end.
func chineseCorpus(count: Int) -> [String] {
    var generator = CorpusGenerator(seed: 0x9E3779B97F4A7C15)
    return (0..<count).map { _ in
        var document = ""
        for index in 1...40 {
            document += chineseVocabulary[generator.next(below: chineseVocabulary.count)]
            if index == 40 {
                document += "。"
            } else if index % 8 == 0 {
                document += "，"
            }
        }
        return document
    }
}
