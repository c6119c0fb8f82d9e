// Name pools for the author sample, several languages and scripts. Each list
// is ordered roughly by frequency (first = most common), which the Zipf
// sampler turns into a realistic skew. "_" inside an entry stands for a space.

export type Style = 'western' | 'iberian' | 'plain' | 'russian';

export interface NameGroup {
  label: string;
  weight: number; // share of authors, in percent
  style: Style;
  family: string[];
  given: string[];
  /** endings for synthetic long-tail family names in this group's flavour */
  suffixes?: string[];
  initials?: boolean; // middle initial / initials-only forms are usual
}

const w = (s: string): string[] =>
  s
    .split(/\s+/)
    .filter(Boolean)
    .map((x) => x.replaceAll('_', ' '));

export const GROUPS: NameGroup[] = [
  {
    label: 'English',
    weight: 20,
    style: 'western',
    initials: true,
    suffixes: w('son ton ley ford well man er'),
    family: w(`Smith Johnson Williams Brown Jones Miller Davis Wilson Taylor Anderson Thomas Moore Jackson
      White Harris Clark Lewis Robinson Walker Young Allen King Wright Scott Hill Green Adams Baker Nelson Carter
      Mitchell Roberts Turner Phillips Campbell Parker Evans Edwards Collins Stewart Morris O'Brien McDonald
      O'Connor MacLeod Fitzgerald Hughes Price Bennett Wood Barnes Ross Henderson Coleman Jenkins Perry Powell
      Sullivan Russell Fisher Kennedy Reynolds Hamilton Graham Wallace Woods Cole West Jordan Owens Ellis`),
    given: w(`John Mary James Patricia Robert Jennifer Michael Linda William Elizabeth David Susan Richard Sarah
      Thomas Karen Emily Daniel Margaret Charles Jessica Matthew Nancy Mark Laura George Helen Edward Rachel
      Peter Alice Andrew Catherine Paul Rebecca Stephen Hannah Christopher Ruth Brian Grace Kevin Claire`),
  },
  {
    label: 'German',
    weight: 8,
    style: 'western',
    initials: true,
    suffixes: w('mann er berg hardt inger'),
    family: w(`Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer
      Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt
      Werner Krause Meier Köhler Weiß Jäger Groß Vogel Günther von_Humboldt Dörfler Strauß`),
    given: w(`Jürgen Klaus Hans Uwe Stefan Andreas Sabine Ursula Monika Petra Jörg Günter Katharina Lukas Lena
      Wolfgang Thomas Birgit Dieter Heike Matthias Anja Björn Gisela Frank Renate Horst Ingrid Sören Käthe`),
  },
  {
    label: 'Spanish',
    weight: 8,
    style: 'iberian',
    suffixes: w('ez eda era ales ano'),
    family: w(`García Rodríguez González Fernández López Martínez Sánchez Pérez Gómez Martín Jiménez Ruiz
      Hernández Díaz Moreno Muñoz Álvarez Romero Alonso Gutiérrez Navarro Torres Domínguez Vázquez Ramos Gil
      Ramírez Serrano Blanco Suárez Molina Castro Ortega Rubio Núñez Peña Ibáñez Castaño Ortíz Cabrera`),
    given: w(`María José Antonio Carmen Manuel Ana Francisco Laura David Lucía Javier Isabel Alejandro Marta
      Pablo Sofía Ángel Inés Jesús Rocío Sergio Pilar Raúl Begoña Andrés Nuria Tomás Elena Íñigo Concepción`),
  },
  {
    label: 'Portuguese',
    weight: 4,
    style: 'western',
    suffixes: w('eira inho ão ares'),
    family: w(`Silva Santos Oliveira Souza Pereira Costa Rodrigues Almeida Nascimento Lima Araújo Fernandes
      Carvalho Gomes Martins Rocha Ribeiro Alves Monteiro Mendes Barbosa Cardoso Magalhães Gonçalves`),
    given: w(`João Ana Luís Mariana Gonçalo Beatriz Tiago Inês Conceição Rafael Joana Bruno Letícia Fábio
      Vitória Sebastião Thaís Caio Larissa Rodrigo`),
  },
  {
    label: 'French',
    weight: 6,
    style: 'western',
    suffixes: w('eau ier ard ette on'),
    family: w(`Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau Simon Laurent Lefèvre
      Michel David Bertrand Roux Vincent Fournier Girard Bonnet Dupont Lambert Fontaine Rousseau Mercier
      Blanchard Guérin Boucher Chevalier de_La_Fontaine Lévêque`),
    given: w(`Jean Marie Pierre Françoise Michel Hélène Stéphane Amélie Jérôme Céline François Agnès Benoît
      Élodie Jean-Luc Anne-Sophie Sylvie Étienne Noël Chloé Gaëlle Thérèse Loïc Mathilde`),
  },
  {
    label: 'Nordic',
    weight: 4,
    style: 'western',
    suffixes: w('sen son gaard berg strøm qvist'),
    family: w(`Hansen Johansson Andersson Nilsen Jensen Larsen Karlsson Olsen Pedersen Eriksson Sørensen
      Kristiansen Haugen Lindqvist Øvergaard Åberg Sjöberg Ødegård Bakken Grønli Ólafsson Sigurðardóttir
      Virtanen Korhonen Mäkinen Nieminen Hämäläinen Mäkelä`),
    given: w(`Søren Bjørn Åsa Ingrid Lars Kari Sigrid Øystein Nils Astrid Jørgen Kjersti Magnús Guðrún Jukka
      Päivi Timo Tuula Matti Sanna Björk Þór Henrik Märta`),
  },
  {
    label: 'Central European',
    weight: 5,
    style: 'western',
    initials: true,
    suffixes: w('ski ová ek ić ák'),
    family: w(`Nowak Kowalski Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski Zieliński Szymański Woźniak
      Dąbrowski Kozłowski Mazur Novák Svoboda Dvořák Černý Procházka Kučera Nagy Kovács Tóth Szabó Horváth
      Varga Molnár Horvat Kovačević Babić Marić Jovanović Popescu Ionescu Țurcanu`),
    given: w(`Piotr Anna Krzysztof Małgorzata Łukasz Agnieszka Paweł Katarzyna Tomasz Jiří Jan Petr Eva
      Zdeněk Věra László István Zsófia Erzsébet Gábor Katalin Ivana Marko Ștefan Ioana`),
  },
  {
    label: 'Dutch',
    weight: 3,
    style: 'western',
    suffixes: w('ink ema stra huis'),
    family: w(`de_Jong Jansen de_Vries van_den_Berg van_Dijk Bakker Visser Smit Meijer de_Boer Mulder de_Groot
      Bos Vos Peters Hendriks van_Leeuwen Dekker Brouwer de_Wit`),
    given: w(`Jan Pieter Sanne Anouk Thijs Femke Daan Lotte Joost Maartje Willem Eline Sjoerd Ilse`),
  },
  {
    label: 'Turkish',
    weight: 2,
    style: 'western',
    family: w(`Yılmaz Kaya Demir Şahin Çelik Yıldız Yıldırım Öztürk Aydın Özdemir Arslan Doğan Kılıç Aslan Çetin`),
    given: w(`Mehmet Ayşe Mustafa Fatma Ahmet Emine Ali Hatice Hüseyin Zeynep Gökhan Özge Çağla Ömer`),
  },
  {
    label: 'Vietnamese',
    weight: 3,
    style: 'plain',
    family: w(`Nguyễn Trần Lê Phạm Hoàng Huỳnh Phan Vũ Võ Đặng Bùi Đỗ Hồ Ngô Dương Lý`),
    given: w(`Văn_An Thị_Lan Văn_Minh Thị_Hương Đức_Anh Minh_Tuấn Thị_Mai Quang_Huy Hoàng_Long Ngọc_Ánh
      Thanh_Hà Văn_Dũng Thị_Thu Hữu_Phước Bảo_Châu`),
  },
  {
    label: 'Russian',
    weight: 5,
    style: 'russian',
    family: w(`Иванов Смирнов Кузнецов Попов Васильев Петров Соколов Михайлов Новиков Фёдоров Морозов Волков
      Алексеев Лебедев Семёнов Егоров Павлов Козлов Степанов Николаев Орлов Андреев Макаров Зайцев`),
    given: w(`Иван Александр Сергей Дмитрий Андрей Алексей Михаил Николай Владимир Павел Юрий Евгений | Мария
      Анна Елена Ольга Наталья Татьяна Екатерина Ирина Светлана Юлия Людмила`),
  },
  {
    label: 'Greek',
    weight: 2,
    style: 'plain',
    family: w(`Παπαδόπουλος Γεωργίου Οικονόμου Παπαδάκης Βασιλείου Νικολάου Καραγιάννης Ιωάννου Δημητρίου
      Παππάς Αντωνίου Κωνσταντίνου Μακρής Αθανασίου`),
    given: w(`Γιώργος Δημήτρης Νίκος Μαρία Ελένη Κωνσταντίνος Αικατερίνη Ιωάννης Σοφία Παναγιώτης Ευαγγελία`),
  },
  {
    label: 'Chinese',
    weight: 5,
    style: 'plain',
    family: w(`王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭 何 高 林 罗 欧阳 司马`),
    given: w(`伟 芳 娜 秀英 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛 明 超 秀兰 霞 志强 建华`),
  },
  {
    label: 'Chinese (pinyin)',
    weight: 5,
    style: 'western',
    family: w(`Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Gao Lin Luo Lü`),
    given: w(`Wei Fang Na Xiuying Min Jing Li Qiang Lei Jun Yang Yong Yan Jie Juan Tao Ming Chao Xiaoming Zhiqiang`),
  },
  {
    label: 'Japanese',
    weight: 3,
    style: 'plain',
    family: w(`佐藤 鈴木 高橋 田中 伊藤 渡辺 山本 中村 小林 加藤 吉田 山田 佐々木 山口 松本`),
    given: w(`太郎 花子 健 翔太 陽子 大輔 美咲 誠 由美 拓也 さくら 浩 恵子 健一`),
  },
  {
    label: 'Japanese (romaji)',
    weight: 2,
    style: 'western',
    family: w(`Satō Suzuki Takahashi Tanaka Itō Watanabe Yamamoto Nakamura Kobayashi Katō Yoshida Yamada`),
    given: w(`Hiroshi Yūko Takeshi Akiko Kenji Yōko Daisuke Misaki Makoto Yumi Takuya Ryōta`),
  },
  {
    label: 'Korean',
    weight: 3,
    style: 'plain',
    family: w(`김 이 박 최 정 강 조 윤 장 임 한 오`),
    given: w(`민준 서연 지훈 지민 현우 수빈 도윤 하은 예준 서준 지우 은지`),
  },
  {
    label: 'Korean (romanized)',
    weight: 2,
    style: 'western',
    family: w(`Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim`),
    given: w(`Min-jun Seo-yeon Ji-hoon Ji-min Hyun-woo Su-bin Do-yun Ha-eun Sung-ho Eun-ji`),
  },
  {
    label: 'Arabic',
    weight: 2,
    style: 'plain',
    family: w(`العلي الحسيني حداد خوري منصور إبراهيم سعيد الأحمد الشمري عبد_الله`),
    given: w(`محمد أحمد علي فاطمة مريم يوسف خالد ليلى عمر نور`),
  },
  {
    label: 'Indian',
    weight: 4,
    style: 'western',
    initials: true,
    family: w(`Sharma Patel Singh Kumar Gupta Reddy Iyer Nair Rao Mukherjee Banerjee Das Joshi Menon Chatterjee`),
    given: w(`Rahul Priya Amit Sunita Anil Deepa Vikram Lakshmi Arjun Kavya Suresh Anjali Rajesh Meera`),
  },
  {
    label: 'Hindi',
    weight: 1,
    style: 'plain',
    family: w(`शर्मा वर्मा गुप्ता सिंह पटेल`),
    given: w(`राहुल प्रिया अमित सुनीता अनिल`),
  },
  {
    label: 'Hebrew',
    weight: 1,
    style: 'plain',
    family: w(`כהן לוי מזרחי פרץ ביטון`),
    given: w(`דוד שרה משה רחל יוסף`),
  },
  {
    label: 'African',
    weight: 3,
    style: 'western',
    suffixes: w('wu ye nde ango'),
    family: w(`Okafor Adeyemi Okonkwo Mensah Mwangi Kamau Otieno Diallo Traoré Ndiaye Nkosi Dlamini Abebe Haile`),
    given: w(`Chinedu Ngozi Oluwaseun Kwame Ama Wanjiru Amadou Fatoumata Thabo Nomvula Tesfaye Aïssatou`),
  },
];

/** Classical Greek (and a few Latin) authors known by one name: real sample only. */
export const MONONYMS = w(`Ἀριστοτέλης Θεόφραστος Διοσκουρίδης Πλάτων Ἱπποκράτης Γαληνός Στράβων Ἡρόδοτος
  Αἰλιανός Ἀθήναιος Plinius Columella Varro`);

/** Syllables for synthetic long-tail family names ("Verkasen", "Tornorsen"). */
export const SYLLABLES = w(`ka lo ver mi ran sto bel tor den gu shi ne ra ku ol an bra li mar tes vo
  fen da ri hol go sa pe nor wi el ta zen ca mo dre lu sel`);
