// The FairyGUI web runtime API that generated TypeScript uses, for type-checking it in
// tests (backend-component/tests/codegen.rs); signatures as FairyGUI-layabox declares them.
// Engines that load the runtime as a script see this global namespace; for those that
// import it as a module the test declares the same body as `declare module "<runtime>"`.
declare namespace fgui {
    class GObject {}
    class GImage extends GObject {}
    class GMovieClip extends GObject {}
    class GGraph extends GObject {}
    class GGroup extends GObject {}
    class GLoader extends GObject {}
    class GLoader3D extends GObject {}
    class GTextField extends GObject {}
    class GRichTextField extends GTextField {}
    class GTextInput extends GTextField {}
    class Controller {}
    class Transition {}
    class GComponent extends GObject {
        getChildAt(index: number): GObject;
        getChild(name: string): GObject;
        getControllerAt(index: number): Controller;
        getController(name: string): Controller;
        getTransitionAt(index: number): Transition;
        getTransition(name: string): Transition;
        protected onConstruct(): void;
    }
    class GButton extends GComponent {}
    class GLabel extends GComponent {}
    class GComboBox extends GComponent {}
    class GProgressBar extends GComponent {}
    class GSlider extends GComponent {}
    class GScrollBar extends GComponent {}
    class GList extends GComponent {}
    class GTree extends GList {}
    class UIPackage {
        static createObject(pkgName: string, resName: string): GObject;
    }
    class UIObjectFactory {
        static setExtension(url: string, type: new () => GComponent): void;
    }
}
