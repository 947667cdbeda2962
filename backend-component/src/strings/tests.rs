use super::*;

const COMPONENT: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<component size="400,300">
  <controller name="c1" pages="0,a,1,b,2,c"/>
  <displayList>
    <text id="n1_ab" name="title" xy="0,0" size="100,20" text="Hello&#xA;&quot;world&quot; &amp; &lt;you&gt;" tooltips="A tip">
      <gearText controller="c1" pages="0,2" values="First|Third" default="Default"/>
    </text>
    <text id="n2" name="count" text="100"/>
    <text id="n3" name="pct" text="%"/>
    <text id="n4" name="name" input="true" text="" prompt="Your name"/>
    <richtext id="n5" name="rich" text="[color=#ff0000]Red[/color] {0}"/>
    <text id="n6" name="cleared" text="Placeholder" autoClearText="true"/>
    <component id="n7" name="ok" src="b1">
      <Button title="OK" selectedTitle="Done"/>
    </component>
    <component id="n8" name="label" src="l1">
      <Label title="Label text" prompt="Type here"/>
    </component>
    <component id="n9" name="combo" src="c2">
      <ComboBox title="Pick one">
        <item title="Apple" value="a"/>
        <item title="42" value="b"/>
        <item title="Cherry" value="c"/>
      </ComboBox>
    </component>
    <component id="n10" name="card" src="k1">
      <property target="n2" propertyId="0" value="Card title"/>
      <property target="n3" propertyId="1" value="ui://icon"/>
    </component>
    <list id="n11" name="list">
      <item title="Row 0" selectedTitle="Row 0 chosen"/>
      <item icon="ui://x"><property target="n1" propertyId="0" value="Inner"/></item>
    </list>
    <list id="n12" name="cleared list" autoClearItems="true">
      <item title="Gone"/>
    </list>
    <text id="n13" name="中文" text="度"/>
  </displayList>
  <transition name="t0"><item time="0" type="Text" target="n1_ab" value="Not exported"/></transition>
</component>"#;

fn keys() -> Vec<(String, String, String)> {
    component_entries("pkg1", "cmp1", COMPONENT)
        .unwrap()
        .into_iter()
        .map(|e| (e.key, e.node_name, e.text))
        .collect()
}

#[test]
fn every_text_the_runtimes_read_gets_its_key_in_their_order() {
    let got: Vec<(String, String)> = keys().into_iter().map(|(k, _, t)| (k, t)).collect();
    let want = [
        ("pkg1cmp1-n1_ab-tips", "A tip"),
        ("pkg1cmp1-n1_ab-texts_0", "First"),
        ("pkg1cmp1-n1_ab-texts_1", "Third"),
        ("pkg1cmp1-n1_ab-texts_def", "Default"),
        ("pkg1cmp1-n1_ab", "Hello\n\"world\" & <you>"),
        ("pkg1cmp1-n4-prompt", "Your name"),
        ("pkg1cmp1-n5", "[color=#ff0000]Red[/color] {0}"),
        ("pkg1cmp1-n7", "OK"),
        ("pkg1cmp1-n7-0", "Done"),
        ("pkg1cmp1-n8", "Label text"),
        ("pkg1cmp1-n8-prompt", "Type here"),
        ("pkg1cmp1-n9-0", "Apple"),
        ("pkg1cmp1-n9-2", "Cherry"),
        ("pkg1cmp1-n9", "Pick one"),
        ("pkg1cmp1-n10-cp-n2", "Card title"),
        ("pkg1cmp1-n11-0", "Row 0"),
        ("pkg1cmp1-n11-0-0", "Row 0 chosen"),
        ("pkg1cmp1-n11-1-n1", "Inner"),
        ("pkg1cmp1-n13", "度"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(k, t)| ((*k).to_owned(), (*t).to_owned()))
        .collect();
    assert_eq!(got, want);
    assert!(keys().iter().any(|(_, name, _)| name == "中文"));
}

#[test]
fn the_file_is_written_as_the_editor_writes_it() {
    let component = ComponentStrings {
        package: "Basics".into(),
        component: "Main".into(),
        entries: component_entries("pkg1", "cmp1", COMPONENT).unwrap(),
    };
    let empty = ComponentStrings {
        package: "Basics".into(),
        component: "Nothing".into(),
        entries: Vec::new(),
    };
    let xml = to_xml(&[component, empty]);
    assert!(xml.starts_with(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n  <!-- Basics - Main -->\n  <string name=\"pkg1cmp1-n1_ab-tips\" mz=\"title\">A tip</string>\n"
    ));
    assert!(xml.contains(
        "<string name=\"pkg1cmp1-n1_ab\" mz=\"title\">Hello\n\"world\" &amp; &lt;you&gt;</string>"
    ));
    assert!(
        !xml.contains("Nothing"),
        "a component without texts gets no comment"
    );
    assert!(xml.ends_with("</string>\n</resources>"));
    // What the runtimes read back is the text exported.
    let document = roxmltree::Document::parse(&xml).unwrap();
    let read: Vec<(&str, String)> = document
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("string"))
        .map(|n| {
            (
                n.attribute("name").unwrap(),
                n.text().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert_eq!(read.len(), 19);
    assert_eq!(
        read[4],
        ("pkg1cmp1-n1_ab", "Hello\n\"world\" & <you>".to_owned())
    );
}

#[test]
fn broken_xml_is_an_error_not_a_panic() {
    assert!(component_entries("p", "c", "<component><displayList>").is_err());
    assert_eq!(
        component_entries("p", "c", "<component/>").unwrap(),
        Vec::new()
    );
}

#[test]
fn a_translation_replaces_each_text_where_it_sits_and_nothing_else() {
    let strings = r#"<resources>
  <string name="pkg1cmp1-n1_ab">Hallo &amp; "Welt"
zwei</string>
  <string name="pkg1cmp1-n1_ab-texts_1">Dritte</string>
  <string name="pkg1cmp1-n9-2">Kirsche</string>
  <string name="pkg1cmp1-n11-1-n1">Innen</string>
  <string name="other-n1">Not this component's</string>
</resources>"#;
    let translations = Translations::read(strings).unwrap();
    let translated = translate(COMPONENT, "pkg1", "cmp1", &translations).unwrap();
    let text = |xml: &str| -> Vec<(String, String)> {
        component_entries("pkg1", "cmp1", xml)
            .unwrap()
            .into_iter()
            .map(|e| (e.key, e.text))
            .collect()
    };
    let (before, after) = (text(COMPONENT), text(&translated));
    let changed: Vec<_> = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b != a)
        .map(|(_, a)| a.clone())
        .collect();
    let owned = |k: &str, t: &str| (k.to_owned(), t.to_owned());
    assert_eq!(
        changed,
        [
            owned("pkg1cmp1-n1_ab-texts_1", "Dritte"),
            owned("pkg1cmp1-n1_ab", "Hallo & \"Welt\"\nzwei"),
            owned("pkg1cmp1-n9-2", "Kirsche"),
            owned("pkg1cmp1-n11-1-n1", "Innen"),
        ]
    );
    assert!(
        translated.contains(r#"values="First|Dritte""#),
        "{translated}"
    );
    assert!(
        translated.contains(r#"text="Hallo &amp; &quot;Welt&quot;&#xA;zwei""#),
        "{translated}"
    );
    // Outside the replaced values the file is byte for byte the same.
    assert_eq!(COMPONENT.lines().count(), translated.lines().count());
    let none = Translations::read("<resources/>").unwrap();
    assert_eq!(translate(COMPONENT, "pkg1", "cmp1", &none), None);
}

#[test]
fn a_sheet_translates_only_its_translated_rows() {
    let csv = "key,component,node,source,translation\r\npkg1cmp1-n7,c,n,OK,Gut\r\npkg1cmp1-n8,c,n,Label text,\r\n";
    let translations = Translations::read(csv).unwrap();
    assert_eq!(translations.len(), 1);
    assert_eq!(translations.get("pkg1cmp1-n7"), Some("Gut"));
    assert!(Translations::read("key,oops\r\n").is_err());
}
