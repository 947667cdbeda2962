//! C# for the Unity and MonoGame runtimes: one `partial` class per component (so a project
//! adds its own code in another file) binding its members in `ConstructFromXML`, and the
//! package's binder.

use std::fmt::Write;

use super::MARK;
use super::classes::{ClassInfo, Group, MemberType, PackageClasses};
use super::names::{identifier, is_csharp_keyword, string_literal};
use super::settings::CodegenSettings;

/// The package's files: (file name, text), the classes and then the binder.
pub(crate) fn write(package: &PackageClasses, settings: &CodegenSettings) -> Vec<(String, String)> {
    let namespace = namespace(&settings.package_name, &package.folder);
    let mut files: Vec<(String, String)> = package
        .classes
        .iter()
        .map(|class| {
            (
                format!("{}.cs", class.class_name),
                class_file(package, class, &namespace),
            )
        })
        .collect();
    files.push((
        format!("{}.cs", package.binder),
        binder_file(package, &namespace),
    ));
    files
}

/// `<packageName>.<folder>`, or the folder alone; each part an identifier.
fn namespace(root: &str, folder: &str) -> String {
    let mut parts: Vec<String> = root
        .split('.')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            let part = identifier(part);
            if is_csharp_keyword(&part) {
                format!("{part}_")
            } else {
                part
            }
        })
        .collect();
    parts.push(folder.to_owned());
    parts.join(".")
}

fn type_name(ty: &MemberType) -> &str {
    match ty {
        MemberType::Runtime(runtime) => runtime.name(),
        MemberType::Class(name) => name,
    }
}

fn class_file(package: &PackageClasses, class: &ClassInfo, namespace: &str) -> String {
    let name = &class.class_name;
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(out, "{MARK}\n\nusing FairyGUI;\nusing FairyGUI.Utils;\n");
    let _ = writeln!(out, "namespace {namespace}\n{{");
    let _ = writeln!(
        out,
        "    public partial class {name} : {}\n    {{",
        class.base.name()
    );
    for member in &class.members {
        let _ = writeln!(
            out,
            "        public {} {};",
            type_name(&member.ty),
            member.var_name
        );
    }
    let url = format!("ui://{}{}", package.package.id, class.resource.id);
    let _ = writeln!(
        out,
        "        public const string URL = {};\n",
        string_literal(&url)
    );
    let _ = writeln!(
        out,
        "        public static {name} CreateInstance()\n        {{"
    );
    let _ = writeln!(
        out,
        "            return ({name})UIPackage.CreateObject({}, {});",
        string_literal(&package.package.name),
        string_literal(&class.resource.name),
    );
    let _ = writeln!(out, "        }}\n");
    let _ = writeln!(
        out,
        "        public override void ConstructFromXML(XML xml)\n        {{"
    );
    let _ = writeln!(out, "            base.ConstructFromXML(xml);");
    if !class.members.is_empty() {
        out.push('\n');
    }
    for member in &class.members {
        let field = &member.var_name;
        let ty = type_name(&member.ty);
        let statement = match (member.group, member.by_name) {
            (Group::Controller, false) => format!("{field} = GetControllerAt({});", member.index),
            (Group::Controller, true) => {
                format!("{field} = GetController({});", string_literal(member.name))
            }
            (Group::Child, false) => format!("{field} = ({ty})GetChildAt({});", member.index),
            (Group::Child, true) => {
                format!("{field} = ({ty})GetChild({});", string_literal(member.name))
            }
            (Group::Transition, false) => format!("{field} = GetTransitionAt({});", member.index),
            (Group::Transition, true) => {
                format!("{field} = GetTransition({});", string_literal(member.name))
            }
        };
        let _ = writeln!(out, "            {statement}");
    }
    let _ = writeln!(out, "        }}\n    }}\n}}");
    out
}

fn binder_file(package: &PackageClasses, namespace: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{MARK}\n\nusing FairyGUI;\n");
    let _ = writeln!(out, "namespace {namespace}\n{{");
    let _ = writeln!(out, "    public class {}\n    {{", package.binder);
    let _ = writeln!(out, "        public static void BindAll()\n        {{");
    for class in &package.classes {
        let name = &class.class_name;
        let _ = writeln!(
            out,
            "            UIObjectFactory.SetPackageItemExtension({name}.URL, typeof({name}));"
        );
    }
    let _ = writeln!(out, "        }}\n    }}\n}}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaces_put_the_package_under_the_root() {
        assert_eq!(namespace("", "Bag"), "Bag");
        assert_eq!(namespace("Game.UI", "Bag"), "Game.UI.Bag");
        assert_eq!(namespace(" my-game . ui ", "Bag"), "my_game.ui.Bag");
        assert_eq!(namespace("class", "Bag"), "class_.Bag");
    }
}
