//! TypeScript for the web runtimes: one ES module per component, its class binding its
//! members in `onConstruct`, and the package's binder module. The runtime is the `fgui`
//! namespace: a global where the engine loads it as a script, imported where it is a module
//! (Cocos Creator, ThreeJS).

use std::fmt::Write;

use super::MARK;
use super::classes::{ClassInfo, Group, MemberType, PackageClasses};
use super::names::string_literal;
use super::settings::WebEngine;

/// The package's files: (file name, text), the classes and then the binder.
pub(crate) fn write(package: &PackageClasses, engine: WebEngine) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = package
        .classes
        .iter()
        .map(|class| {
            (
                format!("{}.ts", class.class_name),
                class_file(package, class, engine),
            )
        })
        .collect();
    files.push((
        format!("{}.ts", package.binder),
        binder_file(package, engine),
    ));
    files
}

fn type_name(ty: &MemberType) -> String {
    match ty {
        MemberType::Runtime(runtime) => format!("fgui.{}", runtime.name()),
        MemberType::Class(name) => name.clone(),
    }
}

/// The head of a module: the mark, the runtime's import where it is a module, then
/// `imports` (the package's classes it uses).
fn head<'a>(engine: WebEngine, imports: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = format!("{MARK}\n\n");
    if let Some(module) = engine.runtime_module() {
        let _ = writeln!(out, "import * as fgui from {};\n", string_literal(module));
    }
    let mut any = false;
    for class in imports {
        let _ = writeln!(
            out,
            "import {class} from {};",
            string_literal(&format!("./{class}"))
        );
        any = true;
    }
    if any {
        out.push('\n');
    }
    out
}

fn class_file(package: &PackageClasses, class: &ClassInfo, engine: WebEngine) -> String {
    let name = &class.class_name;
    let mut imports: Vec<&str> = Vec::new();
    for member in &class.members {
        if let MemberType::Class(used) = &member.ty
            && used != name
            && !imports.contains(&used.as_str())
        {
            imports.push(used);
        }
    }
    let mut out = head(engine, imports);
    let _ = writeln!(
        out,
        "export default class {name} extends fgui.{} {{\n",
        class.base.name()
    );
    // `!`: the fields are set in onConstruct, which the runtime calls, not the constructor.
    for member in &class.members {
        let _ = writeln!(
            out,
            "\tpublic {}!: {};",
            member.var_name,
            type_name(&member.ty)
        );
    }
    let url = format!("ui://{}{}", package.package.id, class.resource.id);
    let _ = writeln!(
        out,
        "\tpublic static URL: string = {};\n",
        string_literal(&url)
    );
    let _ = writeln!(out, "\tpublic static createInstance(): {name} {{");
    let _ = writeln!(
        out,
        "\t\treturn <{name}>(fgui.UIPackage.createObject({}, {}));\n\t}}\n",
        string_literal(&package.package.name),
        string_literal(&class.resource.name),
    );
    let _ = writeln!(out, "\tprotected onConstruct(): void {{");
    for member in &class.members {
        let field = &member.var_name;
        let ty = type_name(&member.ty);
        let statement = match (member.group, member.by_name) {
            (Group::Controller, false) => {
                format!("this.{field} = this.getControllerAt({});", member.index)
            }
            (Group::Controller, true) => format!(
                "this.{field} = this.getController({});",
                string_literal(member.name)
            ),
            (Group::Child, false) => {
                format!("this.{field} = <{ty}>(this.getChildAt({}));", member.index)
            }
            (Group::Child, true) => format!(
                "this.{field} = <{ty}>(this.getChild({}));",
                string_literal(member.name)
            ),
            (Group::Transition, false) => {
                format!("this.{field} = this.getTransitionAt({});", member.index)
            }
            (Group::Transition, true) => format!(
                "this.{field} = this.getTransition({});",
                string_literal(member.name)
            ),
        };
        let _ = writeln!(out, "\t\t{statement}");
    }
    let _ = writeln!(out, "\t}}\n}}");
    out
}

fn binder_file(package: &PackageClasses, engine: WebEngine) -> String {
    let mut out = head(
        engine,
        package.classes.iter().map(|c| c.class_name.as_str()),
    );
    let _ = writeln!(out, "export default class {} {{", package.binder);
    let _ = writeln!(out, "\tpublic static bindAll(): void {{");
    for class in &package.classes {
        let name = &class.class_name;
        let _ = writeln!(
            out,
            "\t\tfgui.UIObjectFactory.setExtension({name}.URL, {name});"
        );
    }
    let _ = writeln!(out, "\t}}\n}}");
    out
}
